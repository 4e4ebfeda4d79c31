#!/bin/sh
# Regenerates digits.png, the reference digits the Fifteen reader starts
# from (src/games/fifteen/digits.rs): one row per font, the digits 0-9 in
# 48x64 cells, black on white, rendered by ImageMagick from the fonts
# Debian ships (DejaVu Sans: what GTK's "Sans" and Chromium's sans-serif
# resolve to on Debian; Nimbus Sans: a Helvetica). Run from this folder.
set -eu
rows=""
for font in DejaVu-Sans DejaVu-Sans-Bold Nimbus-Sans-Regular Nimbus-Sans-Bold; do
    cells=""
    for d in 0 1 2 3 4 5 6 7 8 9; do
        convert -size 48x64 xc:white -font "$font" -pointsize 44 -fill black \
            -gravity center -annotate +0+0 "$d" "cell-$d.png"
        cells="$cells cell-$d.png"
    done
    convert $cells +append "row-$font.png"
    rows="$rows row-$font.png"
    rm -f cell-*.png
done
convert $rows -append -colorspace Gray -depth 8 -strip digits.png
rm -f row-*.png
