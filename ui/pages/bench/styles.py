"""Label styles the Benchmark page's panels share."""

SIM_BADGE = "simulated · 模拟"
ERROR_STYLE = "QLabel { color: #C0392B; }"
OK_STYLE = "QLabel { color: #2E7D32; }"
