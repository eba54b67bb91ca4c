# The roofline of each catalog GPU, with GPT-2 XL's prefill and decode passes
# placed on every roof (data: a02_roofs.csv, a02_gpt2xl_points.csv).
load templates.'/common.gp'
set title 'GPT-2 XL on the roofline of each catalog GPU (dense peaks)'
set xlabel 'arithmetic intensity (FLOP/byte)'
set ylabel 'attainable performance (FLOP/s)'
set logscale xy
set format x '10^{%L}'
set format y '10^{%L}'
set xrange [0.1:10000]
set yrange [1e10:5e15]
gpus = 7
workloads = 3
# GPUs share a slope where their bandwidths match and a roof where their peaks
# do: dashes and widths that shrink down the list keep each line visible.
plot for [i=0:gpus-1] data.'/a02_roofs.csv' index i using 1:2 with lines lw (4-0.4*i) dt i%2+1 title columnheader(2), \
     for [w=0:workloads-1] data.'/a02_gpt2xl_points.csv' index w using 1:2 with points pt (5+2*w) ps 1.6 lc rgb word('#000000 #d62728 #1f77b4', w+1) title columnheader(2)
