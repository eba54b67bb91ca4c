# Shared look of every figure. Each template calls `load templates.'/common.gp'`
# after the caller set: data (CSV folder), out (file to write), format (png|svg).
if (format eq 'png') {
  set terminal pngcairo size 1100,700 enhanced font 'DejaVu Sans,12' linewidth 1.5
} else {
  set terminal svg size 1100,700 enhanced font 'DejaVu Sans,12' linewidth 1.5 background rgb 'white'
}
set output out
set datafile separator ','
set grid xtics ytics mxtics mytics lc rgb '#dddddd'
set key outside right top box opaque noenhanced
set border lw 1
