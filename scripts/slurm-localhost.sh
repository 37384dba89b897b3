#!/bin/sh
# A one-node Slurm cluster on this machine, for the CI test of `qicc batch --slurm`
# (bench/slurm_check.py): Debian's slurm-wlm and munge, a slurm.conf for this machine's CPUs
# and memory, the daemons munged, slurmctld and slurmd started as root, and a wait until the
# node is idle. `stop` cancels every job and stops the daemons.
#
#   scripts/slurm-localhost.sh start|stop
#
# Not for a real cluster: everything runs as root, without accounting (sacct then answers
# nothing and `qicc batch` reads how elements ended from `scontrol show job`).
set -eu
sudo_cmd=""
[ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
conf=/etc/slurm/slurm.conf
case "${1:-}" in
start)
  if ! command -v slurmctld >/dev/null 2>&1 || ! command -v munged >/dev/null 2>&1; then
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq slurm-wlm munge >/dev/null
  fi
  # munge: a key, its run directory, the daemon (as the munge user).
  $sudo_cmd mkdir -p /etc/munge /run/munge /var/log/munge /var/lib/munge
  if [ ! -s /etc/munge/munge.key ]; then
    $sudo_cmd dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
  fi
  $sudo_cmd chown -R munge:munge /etc/munge /run/munge /var/log/munge /var/lib/munge
  $sudo_cmd chmod 0400 /etc/munge/munge.key
  $sudo_cmd chmod 0755 /run/munge
  pgrep -x munged >/dev/null || $sudo_cmd runuser -u munge -- /usr/sbin/munged
  host=$(uname -n)
  host=${host%%.*}
  cpus=$(nproc)
  mem=$(awk '/MemTotal/ { printf "%d", $2 / 1024 - 1024 }' /proc/meminfo)
  $sudo_cmd mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm
  $sudo_cmd tee "$conf" >/dev/null <<CONF
ClusterName=qicc-ci
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
MinJobAge=3600
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
  pgrep -x slurmctld >/dev/null || $sudo_cmd /usr/sbin/slurmctld
  pgrep -x slurmd >/dev/null || $sudo_cmd /usr/sbin/slurmd
  deadline=$(($(date +%s) + 60))
  until timeout 5 sinfo -h -o %T 2>/dev/null | grep -qx idle; do
    if [ "$(date +%s)" -gt "$deadline" ]; then
      echo "slurm-localhost: the node is not idle after 60 s:" >&2
      timeout 5 sinfo >&2 || true
      $sudo_cmd tail -n 20 /var/log/slurm/slurmctld.log /var/log/slurm/slurmd.log >&2 || true
      exit 1
    fi
    sleep 1
  done
  echo "slurm-localhost: node $host idle ($cpus CPUs, $mem MiB)"
  ;;
stop)
  timeout 5 scancel --user="$(id -un)" 2>/dev/null || true
  for d in slurmd slurmctld munged; do
    $sudo_cmd pkill -x "$d" 2>/dev/null || true
    # Wait for it to end (a later start must not find it still shutting down).
    i=0
    while pgrep -x "$d" >/dev/null && [ "$i" -lt 100 ]; do
      sleep 0.1
      i=$((i + 1))
    done
    $sudo_cmd pkill -9 -x "$d" 2>/dev/null || true
  done
  ;;
*)
  echo "usage: $0 start|stop" >&2
  exit 2
  ;;
esac
