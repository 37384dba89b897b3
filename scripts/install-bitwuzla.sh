#!/usr/bin/env bash
# Builds and installs the Bitwuzla qicc links beside Z3: the static C library of Bitwuzla
# 0.8.0, built from the sources the `bitwuzla-sys` crate vendors (fetched from crates.io, the
# same sources the crate's bindings were generated from), into PREFIX (default /usr/local)
# with a pkg-config file that lists what a static link needs. Idempotent: does nothing when
# that version is already there.
#
#   scripts/install-bitwuzla.sh      # as root, or: PREFIX=$HOME/.local scripts/install-bitwuzla.sh
#
# Why from source, and why this way (the README's set-up says the same):
# - No prebuilt library exists for this platform: Debian bookworm has no Bitwuzla package and
#   PyPI's `bitwuzla` wheel carries only a Python module, no C library or headers.
# - The crate's own vendored build (its `vendor-cadical` feature) downloads GMP 6.3 and
#   SymFPU from the network on every clean build; here Debian provides both the SAT solver
#   (libcadical-dev) and SymFPU (libsymfpu-dev), and GMP 6.2 (Bitwuzla asks for 6.3; 6.2 has
#   every function it calls), so the build needs only crates.io and Debian.
# - Built once per machine (a few minutes on 2 cores), not once per `cargo build`.
#
# Needs: meson, ninja-build, g++, libgmp-dev, libcadical-dev, libsymfpu-dev (Debian), python3.
set -euo pipefail

VERSION="${BITWUZLA_VERSION:-0.8.0}"
PREFIX="${PREFIX:-/usr/local}"
JOBS="${JOBS:-$(nproc)}"

# qicc's patches to those sources, named in the pkg-config file (`qicc_patches`) so that
# `qicc-smt`'s build script refuses a library without them:
# - bitwuzla-terminate.patch: the phases before the SAT solver (rewriting, variable
#   substitution, abstraction, bit-blasting) poll the termination callback, so a check stops
#   at its time limit instead of seconds later (see the patch's `util/terminate_poll.h`).
# - bitwuzla-value-cache.patch: model values of many terms over one large DAG cost the DAG
#   once, not once per term (a get-value pass kept its cache per call).
PATCHES="terminate value-cache"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

pc="$PREFIX/lib/pkgconfig/bitwuzla.pc"
if [ -f "$pc" ] && grep -qx "Version: $VERSION" "$pc" && grep -qx "qicc_patches=$PATCHES" "$pc" \
  && [ -f "$PREFIX/lib/libbitwuzla.a" ]; then
  echo "bitwuzla $VERSION already installed in $PREFIX"
  exit 0
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 - "https://static.crates.io/crates/bitwuzla-sys/bitwuzla-sys-$VERSION.crate" "$work/crate.tar.gz" <<'PY'
import sys, urllib.request
urllib.request.urlretrieve(sys.argv[1], sys.argv[2])
PY
tar -xzf "$work/crate.tar.gz" -C "$work"
src="$work/bitwuzla-sys-$VERSION/bitwuzla"

# GMP: Bitwuzla 0.8.0 asks for 6.3 only to pick its subproject's version; Debian's 6.2.1 is
# what it is linked and tested against here.
sed -i "s/version: '>=6.3'/version: '>=6.2'/" "$src/src/meson.build"
# SymFPU is header-only and Debian ships no pkg-config file for it: describe it, so meson
# finds the system headers instead of cloning the subproject.
mkdir -p "$work/pc"
cat >"$work/pc/symfpu.pc" <<EOF
Name: symfpu
Description: SymFPU headers (Debian libsymfpu-dev)
Version: 0.0
Cflags:
EOF

for p in $PATCHES; do
  patch -s -p1 -d "$src" <"$here/bitwuzla-$p.patch"
done

cd "$src"
PKG_CONFIG_PATH="$work/pc${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}" \
  meson setup "$work/build" --wrap-mode=nodownload --buildtype=release \
  -Ddefault_library=static -Dtesting=disabled -Dunit_testing=disabled \
  --prefix="$PREFIX" --libdir=lib >"$work/setup.log" 2>&1 || {
  cat "$work/setup.log" >&2
  exit 1
}
ninja -C "$work/build" -j "$JOBS" >"$work/build.log" 2>&1 || {
  tail -n 60 "$work/build.log" >&2
  exit 1
}
ninja -C "$work/build" install >/dev/null

# The libraries a static link of libbitwuzla.a needs, in link order: the library, its
# internal archives (local search, bit-vector and bit-blaster layers, each using the next),
# the SAT solver and GMP from Debian, and the C++ runtime.
libs="-lbitwuzla -lbitwuzlals -lbitwuzlabv -lbitwuzlabb"
cat >"$pc" <<EOF
prefix=$PREFIX
libdir=\${prefix}/lib
includedir=\${prefix}/include
qicc_patches=$PATCHES

Name: bitwuzla
Description: Bitwuzla SMT solver $VERSION (static; built by qicc's scripts/install-bitwuzla.sh)
Version: $VERSION
Libs: -L\${libdir} $libs -lcadical -lgmp -lstdc++ -lm
Cflags: -I\${includedir}
EOF
echo "installed bitwuzla $VERSION in $PREFIX"
