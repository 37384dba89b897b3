#!/usr/bin/env bash
# Installs the two solvers qicc links, each idempotently: Z3 (scripts/install-z3.sh, PyPI's
# prebuilt library) and Bitwuzla (scripts/install-bitwuzla.sh, built from source, which needs
# meson, ninja-build, g++, libgmp-dev, libcadical-dev and libsymfpu-dev from Debian).
#
#   sudo scripts/install-solvers.sh     # or: PREFIX=$HOME/.local scripts/install-solvers.sh
set -euo pipefail
here="$(dirname "$0")"
"$here/install-z3.sh"
"$here/install-bitwuzla.sh"
