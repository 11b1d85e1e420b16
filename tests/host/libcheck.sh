# SPDX-License-Identifier: GPL-2.0
#
# libcheck.sh - what the host tests that link rtla's libcheck unit tests
# source. Debian's libcheck is a static library that needs libsubunit and
# libm after it, where rtla's link line and feature test put -lcheck last:
# a linker script of that name in a directory of ours adds them. Sets
# $shim, the directory to give the link as -L.

shim=$top/build/libcheck
mkdir -p "$shim"
libdir=$(dirname "$(gcc -print-file-name=libcheck.a)")
echo "GROUP ( $libdir/libcheck.a -lsubunit -lm -lrt -lpthread )" > "$shim/libcheck.so"
