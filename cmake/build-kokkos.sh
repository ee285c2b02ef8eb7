#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Builds Kokkos 3.4.01 (OpenMP + Serial, C++17, Release, static, PIC) from the source that PyPI's
# pykokkos-base==0.0.7 sdist carries, and installs it into a cache outside the tree. Idempotent.
set -euo pipefail

prefix=${1:?usage: build-kokkos.sh INSTALL_PREFIX}
sdist_sha256=6339daced1e81a2748f381847d8717cd77d824407da3c263b9491b5630c642b0
[[ -f "$prefix/.amp-complete" ]] && exit 0

work=$(mktemp -d "${TMPDIR:-/tmp}/amp-kokkos.XXXXXX")
trap 'rm -rf "$work"' EXIT

echo "amp: fetching Kokkos 3.4.01 source (pykokkos-base==0.0.7 sdist from PyPI)"
python3 -m pip download --quiet --no-deps --no-binary pykokkos-base -d "$work" pykokkos-base==0.0.7
sdist="$work/pykokkos-base-0.0.7.tar.gz"
echo "$sdist_sha256  $sdist" | sha256sum --check --quiet \
  || { echo "amp: error: checksum mismatch for $sdist" >&2; exit 1; }

tar -xzf "$sdist" -C "$work" --exclude='pykokkos-base-0.0.7/external/kokkos/build' \
  pykokkos-base-0.0.7/external/kokkos
src="$work/pykokkos-base-0.0.7/external/kokkos"

echo "amp: building Kokkos 3.4.01 (OpenMP + Serial) into $prefix"
cmake -S "$src" -B "$work/build" -G Ninja \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_STANDARD=17 -DCMAKE_CXX_EXTENSIONS=OFF \
  -DBUILD_SHARED_LIBS=OFF -DCMAKE_POSITION_INDEPENDENT_CODE=ON \
  -DKokkos_ENABLE_OPENMP=ON -DKokkos_ENABLE_SERIAL=ON \
  -DKokkos_ENABLE_TESTS=OFF -DKokkos_ENABLE_EXAMPLES=OFF \
  -DCMAKE_INSTALL_PREFIX="$prefix" >"$work/configure.log" 2>&1 \
  || { tail -n 30 "$work/configure.log" >&2; exit 1; }
cmake --build "$work/build" --parallel "$(nproc)" >"$work/build.log" 2>&1 \
  || { tail -n 30 "$work/build.log" >&2; exit 1; }
cmake --install "$work/build" >/dev/null
touch "$prefix/.amp-complete"
echo "amp: Kokkos installed in $prefix"
