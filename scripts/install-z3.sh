#!/usr/bin/env bash
# Installs the Z3 that qicc links: the library and C headers of PyPI's `z3-solver` wheel
# (a prebuilt, current Z3; no build from source), into PREFIX (default /usr/local) with a
# pkg-config file, which is how the z3-sys crate finds it. Idempotent: does nothing when
# that version is already there.
#
#   scripts/install-z3.sh            # as root, or: PREFIX=$HOME/.local scripts/install-z3.sh
#
# With a PREFIX outside the linker's default paths, also export
#   PKG_CONFIG_PATH=$PREFIX/lib/pkgconfig  LD_LIBRARY_PATH=$PREFIX/lib
# (the library's soname, libz3.so.5.4, does not clash with Debian's libz3.so.4).
set -euo pipefail

VERSION="${Z3_VERSION:-5.4.1}"
PREFIX="${PREFIX:-/usr/local}"
SONAME_VERSION="${VERSION%.*}"          # 5.4.1 -> 5.4

if [ -f "$PREFIX/lib/pkgconfig/z3.pc" ] && grep -qx "Version: $VERSION" "$PREFIX/lib/pkgconfig/z3.pc" &&
  [ -f "$PREFIX/lib/libz3.so.$SONAME_VERSION" ]; then
  echo "z3 $VERSION already installed in $PREFIX"
  exit 0
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 -m pip download -q --no-deps --only-binary=:all: -d "$work" "z3-solver==$VERSION"
python3 - "$work" <<'EOF'
import glob, sys, zipfile
wheel, = glob.glob(sys.argv[1] + "/z3_solver-*.whl")
zipfile.ZipFile(wheel).extractall(sys.argv[1] + "/x")
EOF
src="$work/x/z3"
lib="$(ls "$src"/lib/libz3.so.* | head -n 1)"
soname="$(basename "$lib")"

mkdir -p "$PREFIX/lib/pkgconfig" "$PREFIX/include/z3"
install -m 0644 "$lib" "$PREFIX/lib/$soname"
ln -sf "$soname" "$PREFIX/lib/libz3.so"
# Headers in their own directory, so Debian's /usr/include/z3*.h (an older Z3) never mixes in.
install -m 0644 "$src"/include/*.h "$PREFIX/include/z3/"
cat >"$PREFIX/lib/pkgconfig/z3.pc" <<EOF
prefix=$PREFIX
libdir=\${prefix}/lib
includedir=\${prefix}/include/z3

Name: z3
Description: Z3 theorem prover (library of PyPI's z3-solver $VERSION)
Version: $VERSION
Libs: -L\${libdir} -lz3
Cflags: -I\${includedir}
EOF
if [ "$(id -u)" -eq 0 ] && command -v ldconfig >/dev/null; then
  ldconfig
fi
echo "installed z3 $VERSION ($soname) in $PREFIX"
