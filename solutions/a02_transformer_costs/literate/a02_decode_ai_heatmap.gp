# Decode arithmetic intensity of GPT-2 XL over batch × KV length, each cell
# labelled with its value (data: a02_decode_ai_heatmap.csv).
load templates.'/common.gp'
set title 'GPT-2 XL cached decode: arithmetic intensity (FLOP/byte) over batch and KV length'
set xlabel 'batch size'
set ylabel 'KV length (cached positions)'
set xrange [-0.5:8.5]
set yrange [4.5:10.5]
set xtics 1
set ytics 1
set for [i=0:8] xtics add (sprintf('%d', 2**i) i)
set for [k=5:10] ytics add (sprintf('%d', 2**k) k)
set format x ''
set format y ''
unset grid
set logscale cb
set cblabel 'FLOP/byte (log scale)'
set palette defined (0 '#f7fbff', 1 '#6baed6', 2 '#08306b')
set key off
plot data.'/a02_decode_ai_heatmap.csv' skip 1 using 1:2:3 with image, \
     '' skip 1 using 1:2:(sprintf('%.3g', $3)):($3 > 30 ? 0xffffff : 0x000000) with labels font ',11' tc rgb variable
