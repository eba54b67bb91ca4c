# T_compute vs T_memory for GPT-2 XL on the lab's T4 (65 TFLOP/s, 300 GB/s),
# prefill and cached decode at (B, N) in {1, 64} x {32, 1024}
# (data: a02_time_four_cases.csv).
load templates.'/common.gp'
set title 'GPT-2 XL on a T4 (65 TFLOP/s, 300 GB/s): the taller bar sets the time'
set ylabel 'time per pass (ms, log scale)'
set logscale y
set format y '%g'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set xtics rotate by -30 scale 0
set key inside left top box opaque noenhanced
plot data.'/a02_time_four_cases.csv' using 2:xtic(1) title columnheader(2) lc rgb '#1f77b4', \
     '' using 3 title columnheader(3) lc rgb '#d62728'
