"""Write a tiny random-weight Llama model as GGUF, so a real llama.cpp server can run on a laptop CPU.

Model weights cannot be downloaded here (and need not be: the interop check tests the *protocol*, not the
answers). The file has a real SentencePiece-style vocabulary (byte fallback + a few hundred pieces in English
and Chinese) so the server tokenizes and detokenizes normally; the text it generates is random.

Usage: python tools/interop/make_tiny_gguf.py OUT.gguf
"""

from __future__ import annotations

import sys

import gguf
import numpy as np

N_EMBD, N_LAYER, N_HEAD, N_HEAD_KV, N_FF, N_CTX = 64, 2, 4, 2, 128, 4096
WORDS = (
    "the a of and to in is it you that he was for on are as with his they I at be this have from or one had by "
    "word but not what all were we when your can said there use an each which she do how their if will up other "
    "about out many then them these so some her would make like him into time has look two more write go see "
    "number no way could people my than first water been call who oil its now find long down day did get come "
    "made may part GPU token model server memory latency throughput batch cache context prefill decode"
).split()
HANZI = "的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家学对可她里后小么心多天而能好都然没日于起推理部署显存并发延迟吞吐"


def vocabulary() -> tuple[list[str], list[float], list[int]]:
    T = gguf.TokenType
    tokens, scores, types = ["<unk>", "<s>", "</s>"], [0.0, 0.0, 0.0], [T.UNKNOWN, T.CONTROL, T.CONTROL]
    for b in range(256):
        tokens.append(f"<0x{b:02X}>")
        scores.append(0.0)
        types.append(T.BYTE)
    pieces = ["▁" + w for w in WORDS] + list(dict.fromkeys(HANZI)) + [chr(c) for c in range(33, 127)] + ["▁", "，", "。"]
    for i, p in enumerate(dict.fromkeys(pieces)):
        tokens.append(p)
        scores.append(-float(i))
        types.append(T.NORMAL)
    return tokens, scores, [int(t) for t in types]


def main(path: str) -> None:
    rng = np.random.default_rng(0)
    tokens, scores, types = vocabulary()
    n_vocab = len(tokens)
    w = gguf.GGUFWriter(path, "llama")
    w.add_name("tiny-random-llama (inference-advisor interop check)")
    w.add_context_length(N_CTX)
    w.add_embedding_length(N_EMBD)
    w.add_block_count(N_LAYER)
    w.add_feed_forward_length(N_FF)
    w.add_head_count(N_HEAD)
    w.add_head_count_kv(N_HEAD_KV)
    w.add_rope_dimension_count(N_EMBD // N_HEAD)
    w.add_layer_norm_rms_eps(1e-5)
    w.add_file_type(gguf.LlamaFileType.ALL_F32)
    w.add_tokenizer_model("llama")
    w.add_token_list(tokens)
    w.add_token_scores(scores)
    w.add_token_types(types)
    w.add_bos_token_id(1)
    w.add_eos_token_id(2)
    w.add_unk_token_id(0)
    w.add_add_bos_token(True)
    w.add_chat_template(
        "{% for m in messages %}<|{{ m['role'] }}|>{{ m['content'] }}\n{% endfor %}{% if add_generation_prompt %}<|assistant|>{% endif %}"
    )

    def rand(*shape: int) -> np.ndarray:
        return (rng.standard_normal(shape) * 0.5).astype(np.float32)

    head_dim = N_EMBD // N_HEAD
    w.add_tensor("token_embd.weight", rand(n_vocab, N_EMBD))
    for i in range(N_LAYER):
        w.add_tensor(f"blk.{i}.attn_norm.weight", np.ones(N_EMBD, dtype=np.float32))
        w.add_tensor(f"blk.{i}.attn_q.weight", rand(N_EMBD, N_EMBD))
        w.add_tensor(f"blk.{i}.attn_k.weight", rand(N_HEAD_KV * head_dim, N_EMBD))
        w.add_tensor(f"blk.{i}.attn_v.weight", rand(N_HEAD_KV * head_dim, N_EMBD))
        w.add_tensor(f"blk.{i}.attn_output.weight", rand(N_EMBD, N_EMBD))
        w.add_tensor(f"blk.{i}.ffn_norm.weight", np.ones(N_EMBD, dtype=np.float32))
        w.add_tensor(f"blk.{i}.ffn_gate.weight", rand(N_FF, N_EMBD))
        w.add_tensor(f"blk.{i}.ffn_up.weight", rand(N_FF, N_EMBD))
        w.add_tensor(f"blk.{i}.ffn_down.weight", rand(N_EMBD, N_FF))
    w.add_tensor("output_norm.weight", np.ones(N_EMBD, dtype=np.float32))
    w.add_tensor("output.weight", rand(n_vocab, N_EMBD))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    print(f"wrote {path}: vocab {n_vocab}, {N_LAYER} layers, n_embd {N_EMBD}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tiny-random-llama.gguf")
