# Peak extra memory of one attention call vs sequence length (B = H = 1,
# d = 64, fp32): N² for standard attention, N·d² for the causal cumsum, N·d for
# linear and flash attention (data: attention_memory_vs_n.csv).
load templates.'/common.gp'
set title 'Attention memory vs N: the N^2 wall and the ways around it'
set xlabel 'sequence length N'
set ylabel 'peak extra memory (MiB)'
set logscale xy 2
set format x '%g'
set format y '%g'
set key inside left top box opaque noenhanced
plot for [c=2:6] data.'/attention_memory_vs_n.csv' using 1:c with linespoints lw 2 pt 7 title columnheader(c)
