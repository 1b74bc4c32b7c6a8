"""Write a tiny random-weight Llama checkpoint (head_dim 64: vLLM's CPU attention needs >= 32) in Hugging Face format (config, safetensors, fast tokenizer).

For the opt-in vLLM (CPU build) interop check: weights cannot be downloaded here, and the check tests the
server's protocol, not its answers. The tokenizer is a byte-level BPE trained on a few English and Chinese
sentences, with a chat template, so chat and completions both work.

Usage: python tools/interop/make_tiny_hf.py OUT_DIR   (needs torch, transformers, tokenizers)
"""

from __future__ import annotations

import sys

from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

CORPUS = [
    "The GPU memory holds the weights and the KV cache of every request.",
    "Prefill is compute-bound; decode is bandwidth-bound.",
    "推理部署需要估算显存、并发和延迟。首字延迟由预填充决定。",
    "Throughput grows with concurrency until the knee, then latency rises steeply.",
    "模型权重、KV Cache 和框架开销加起来不能超过显存容量。",
] * 20
CHAT_TEMPLATE = (
    "{% for m in messages %}<|{{ m['role'] }}|>{{ m['content'] }}\n{% endfor %}"
    "{% if add_generation_prompt %}<|assistant|>{% endif %}"
)


def main(out: str) -> None:
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=512, special_tokens=["<s>", "</s>", "<unk>"],
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())  # fmt: skip
    tok.train_from_iterator(CORPUS, trainer)
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, bos_token="<s>", eos_token="</s>", unk_token="<unk>")
    fast.chat_template = CHAT_TEMPLATE
    fast.save_pretrained(out)
    cfg = LlamaConfig(
        vocab_size=len(fast), hidden_size=256, intermediate_size=512, num_hidden_layers=2, num_attention_heads=4,
        num_key_value_heads=2, max_position_embeddings=4096, bos_token_id=fast.bos_token_id,
        eos_token_id=fast.eos_token_id, torch_dtype="bfloat16",
    )  # fmt: skip
    LlamaForCausalLM(cfg).save_pretrained(out, safe_serialization=True)
    print(f"wrote {out}: vocab {len(fast)}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tiny-random-llama-hf")
