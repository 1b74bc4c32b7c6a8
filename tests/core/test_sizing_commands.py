"""The command to copy names a checkpoint that exists in the format asked, or says plainly that one is needed."""

from advisor.catalog import get_gpu, get_model
from advisor.domain.sizing import SizingRequest
from advisor.model_import import model_from_config
from advisor.sizing import size

H100 = get_gpu("h100-sxm-80g")


def _size(model, weights, gpus=1):
    return size(SizingRequest(model=get_model(model) if isinstance(model, str) else model, gpu=H100, weights=weights, gpus=gpus), "en")


def test_a_known_quantized_checkpoint_is_served_instead_of_the_16_bit_repo():
    r = _size("llama-3.1-70b-instruct", "awq-int4", gpus=2)
    assert r.vllm_command.startswith("vllm serve hugging-quants/Meta-Llama-3.1-70B-Instruct-AWQ-INT4 ")
    assert "--quantization" not in r.vllm_command  # the checkpoint declares it
    assert any("hugging-quants/Meta-Llama-3.1-70B-Instruct-AWQ-INT4" in a.text for a in r.advice)


def test_no_known_checkpoint_is_said_plainly_and_no_wrong_repo_is_named():
    r = _size("llama-3.3-70b-instruct", "awq-int4", gpus=2)
    assert "vllm serve meta-llama/Llama-3.3-70B-Instruct " not in r.vllm_command  # would load BF16 weights
    assert r.vllm_command.startswith("vllm serve <AWQ INT4")
    assert any(a.kind == "warning" and "needs a checkpoint quantized ahead of time" in a.text for a in r.advice)


def test_dynamic_fp8_still_uses_the_16_bit_checkpoint_with_the_flag():
    r = _size("qwen2.5-7b-instruct", "fp8")
    assert r.vllm_command.startswith("vllm serve Qwen/Qwen2.5-7B-Instruct ") and "--quantization fp8" in r.vllm_command


def test_gguf_from_a_known_repo_uses_llama_server_hf():
    r = _size("qwen2.5-7b-instruct", "gguf-q4_k_m")
    assert r.llama_cpp_command.startswith("llama-server -hf Qwen/Qwen2.5-7B-Instruct-GGUF:Q4_K_M ")


def test_an_imported_config_is_not_served_by_its_folder_name(tmp_path):
    folder = tmp_path / "good"
    folder.mkdir()
    cfg = get_model("qwen2.5-7b-instruct")
    model = model_from_config(
        {"architectures": ["Qwen2ForCausalLM"], "model_type": "qwen2", "hidden_size": cfg.hidden_size,
         "intermediate_size": cfg.intermediate_size, "num_hidden_layers": cfg.num_layers,
         "num_attention_heads": cfg.num_attention_heads, "num_key_value_heads": cfg.num_kv_heads,
         "vocab_size": cfg.vocab_size, "max_position_embeddings": 32768, "torch_dtype": "bfloat16"},
        model_id="good",
    )  # fmt: skip
    r = _size(model, "bf16")
    assert not r.vllm_command.startswith("vllm serve good ")
    assert r.vllm_command.startswith("vllm serve <path/to/good>")
