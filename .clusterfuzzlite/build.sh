#!/bin/bash -eu
# Builds every native Go fuzz target of the module as a libFuzzer binary in
# $OUT. Run by ClusterFuzzLite and OSS-Fuzz inside the base-builder-go image
# (which sets SRC, OUT, WORK, CXX, CXXFLAGS, LIB_FUZZING_ENGINE, SANITIZER).
# The steps are those of scripts/fuzz-libfuzzer.sh, which `make
# fuzz-libfuzzer` runs outside the image.
cd "$SRC/conform"
scripts/fuzz-libfuzzer.sh deps build
