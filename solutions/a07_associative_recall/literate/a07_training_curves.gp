# a07: the training batch's loss and the held-out accuracy against the step,
# for 1 and 2 layers with the same seed (data: a07_training_curves.csv, from
# the reference's seeded sweep). Two panels share the step axis.
load templates.'/common.gp'
set multiplot layout 2,1 title 'Associative recall: 1 layer vs 2 layers, same seed'
set key inside left bottom box opaque noenhanced
set ylabel 'training loss (cross-entropy)'
set logscale y
set format y '%g'
set xrange [0:*]
plot data.'/a07_training_curves.csv' using 1:2 with linespoints lw 2 pt 7 ps 0.6 lc rgb '#ed7d31' title columnheader(2), \
     '' using 1:4 with linespoints lw 2 pt 7 ps 0.6 lc rgb '#4472c4' title columnheader(4)
unset logscale y
set key inside right center box opaque noenhanced
set xlabel 'training step'
set ylabel 'held-out accuracy (%)'
set yrange [0:105]
plot data.'/a07_training_curves.csv' using 1:3 with linespoints lw 2 pt 7 ps 0.6 lc rgb '#ed7d31' title columnheader(3), \
     '' using 1:5 with linespoints lw 2 pt 7 ps 0.6 lc rgb '#4472c4' title columnheader(5)
unset multiplot
