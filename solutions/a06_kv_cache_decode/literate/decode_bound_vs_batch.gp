# The roofline bound on GPT-2 small's decode speed (fp32) at 50 GB/s against
# the batch, for 128 and 1024 cached tokens per sequence (data:
# decode_bound_vs_batch.csv, from a02's cost model).
load templates.'/common.gp'
set title 'GPT-2 small decode at 50 GB/s: the bound on tokens/s vs batch'
set xlabel 'batch (sequences decoded together)'
set ylabel 'tokens/s (bound)'
set logscale xy 2
set format x '%g'
set format y '%g'
set key inside left top box opaque noenhanced
plot data.'/decode_bound_vs_batch.csv' using 1:2 with linespoints lw 2 pt 7 title columnheader(2), \
     data.'/decode_bound_vs_batch.csv' using 1:3 with linespoints lw 2 pt 7 title columnheader(3)
