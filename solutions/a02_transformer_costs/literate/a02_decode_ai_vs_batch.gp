# Cached decode: arithmetic intensity vs batch size for GPT-2 XL at several KV
# lengths, against the T4's ridge point (data: a02_decode_ai_vs_batch.csv).
load templates.'/common.gp'
set title 'GPT-2 XL cached decode: intensity grows with the batch, KV traffic caps it'
set xlabel 'batch size (requests decoded together)'
set ylabel 'arithmetic intensity (FLOP/byte)'
set logscale xy 2
set format x '%g'
set format y '%g'
set xrange [1:1024]
set yrange [0.5:512]
set key inside right bottom box opaque noenhanced
plot for [c=2:4] data.'/a02_decode_ai_vs_batch.csv' using 1:c with linespoints lw 2 pt 7 title columnheader(c), \
     data.'/a02_decode_ai_vs_batch.csv' using 1:5 with lines dt 2 lw 2 lc rgb '#555555' title columnheader(5)
