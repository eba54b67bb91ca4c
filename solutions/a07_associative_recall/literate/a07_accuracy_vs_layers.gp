# a07: held-out accuracy of the attention-only model against its number of
# layers, each trained with the same seed and step budget (data:
# a07_accuracy_vs_layers.csv, from the reference's seeded sweep), beside the
# 90 % bar and what answering a sequence's most frequent value scores.
load templates.'/common.gp'
set title 'Associative recall: held-out accuracy vs number of attention layers'
set xlabel 'attention layers'
set ylabel 'held-out accuracy (%)'
set xrange [0.5:4.5]
set xtics 1
set yrange [0:105]
set style fill solid 0.6 border -1
set boxwidth 0.5
set key outside below center vertical maxrows 2 box opaque noenhanced
set bmargin 7
# The bar and the baseline are the same on every row: draw them across the axis.
stats data.'/a07_accuracy_vs_layers.csv' using 3 name 'baseline' nooutput
stats data.'/a07_accuracy_vs_layers.csv' using 4 name 'bar' nooutput
plot data.'/a07_accuracy_vs_layers.csv' using 1:2 with boxes lc rgb '#4472c4' title columnheader(2), \
     '' using 1:2:(sprintf('%.0f %%', $2)) with labels offset 0,0.8 notitle, \
     bar_max with lines lw 2 dt 2 lc rgb '#c00000' title 'the 90 % bar', \
     baseline_max with lines lw 2 dt 3 lc rgb '#555555' title 'answering the most frequent value'
