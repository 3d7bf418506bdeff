#!/bin/sh
# The README's first command (make demo) ends here: run histmac on the
# bundled sample.  usage: scripts/demo.sh HISTMAC OUTDIR
set -eu
histmac=$1
out=$2
mkdir -p "$out"
"$histmac" --version
