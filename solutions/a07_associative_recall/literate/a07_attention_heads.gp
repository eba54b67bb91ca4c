# a07: where each head of the trained 2-layer model looks on the first
# held-out sequence: one heatmap per (layer, head), queries down, keys across,
# each labelled with its token (k = key, v = value, k?  = the query). Data:
# a07_attention_layer<l>_head<h>.csv (key, query, weight %, labels), from the
# reference's seeded 2-layer run.
load templates.'/common.gp'
if (format eq 'png') {
  set terminal pngcairo size 1200,1100 enhanced font 'DejaVu Sans,11' linewidth 1.5
} else {
  set terminal svg size 1200,1100 enhanced font 'DejaVu Sans,11' linewidth 1.5 background rgb 'white'
}
set output out
unset grid
unset key
set palette defined (0 'white', 50 '#6baed6', 100 '#08306b')
set cbrange [0:100]
set cblabel 'attention weight (%)'
# The sequence's length, from the data: positions 0 … last.
stats data.'/a07_attention_layer0_head0.csv' using 1 nooutput
last = STATS_max
set xrange [-0.5:last + 0.5]
set yrange [last + 0.5:-0.5]
set xtics rotate by 90 right font ',9' scale 0
set ytics font ',9' scale 0
set size ratio -1
set multiplot layout 2,2 title 'Attention of the 2-layer model on one held-out sequence (rows: queries, columns: keys)'
do for [layer = 0:1] {
  do for [head = 0:1] {
    set title sprintf('layer %d, head %d', layer, head)
    plot sprintf('%s/a07_attention_layer%d_head%d.csv', data, layer, head) \
         using 1:2:3:xtic(4):ytic(5) with image
  }
}
unset multiplot
