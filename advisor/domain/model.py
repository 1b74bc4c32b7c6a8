"""ModelSpec: the architecture facts that decide memory and speed, imported from a Hugging Face config.json.

Every count here is what the checkpoint really holds; ``advisor.sizing.tensors`` turns a ModelSpec into
the exact list of weight tensors, from which parameter counts and bytes per format are summed.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from advisor.i18n import tr  # an imported config's problems read in the UI language

# "linear": a linear-attention layer (Qwen3-Next's Gated DeltaNet) that keeps a constant-size state per sequence
# "chunked": Llama 4's local layers, attending within fixed 8,192-token chunks (attention_chunk_size)
LayerAttention = Literal["full", "sliding", "linear", "chunked"]
NormKind = Literal["rmsnorm", "layernorm"]


class ModelSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    architecture: str = Field(min_length=1, description="Hugging Face `architectures[0]`")
    family: str = Field(min_length=1, description="Hugging Face `model_type`")
    hf_repo: str | None = None

    hidden_size: int = Field(gt=0, le=65536)
    num_layers: int = Field(gt=0, le=1024)
    num_attention_heads: int = Field(gt=0, le=4096)
    num_kv_heads: int = Field(gt=0, le=4096)
    head_dim: int = Field(gt=0, le=4096)
    intermediate_size: int = Field(ge=0, le=1_000_000, description="dense MLP width (0 when every layer is MoE)")
    vocab_size: int = Field(gt=0, le=10_000_000)
    tie_word_embeddings: bool = False
    max_position_embeddings: int = Field(gt=0, le=100_000_000)
    rope_scaling_factor: float | None = Field(None, gt=0, description="context extension (YaRN etc.) when the config enables it")
    original_max_position_embeddings: int | None = None

    qkv_bias: bool = False
    o_bias: bool = False
    mlp_bias: bool = False
    norm: NormKind = "rmsnorm"
    norms_per_layer: int = Field(2, ge=0, le=8, description="Gemma-2 has 4 (pre/post attention and MLP)")
    qk_norm: bool = Field(False, description="per-head RMSNorm on q and k (Qwen3, Gemma-3)")
    index_n_heads: int = Field(
        0, ge=0, le=1024, description="DeepSeek-V3.2's sparse-attention indexer: its heads (0: no indexer, dense attention)"
    )
    index_head_dim: int = Field(0, ge=0, le=4096, description="the indexer's head width; it caches one key of this width per token")
    index_topk: int = Field(0, ge=0, description="tokens each query attends to after the indexer's selection")
    qk_norm_full: bool = Field(
        False, description="q/k RMSNorm over all heads at once (MiniMax-M2: q_norm of heads x head_dim), split with the heads"
    )
    attention_sinks: bool = Field(False, description="one learned sink logit per attention head (gpt-oss)")
    attn_output_gate: bool = Field(False, description="q_proj also produces a per-head output gate (Qwen3-Next): twice as wide")
    mlp_gated: bool = True
    dtype: str = "bfloat16"

    # Mixture of experts
    num_experts: int = Field(0, ge=0, le=4096)
    num_experts_per_tok: int = Field(0, ge=0, le=4096)
    moe_intermediate_size: int = Field(0, ge=0)
    num_shared_experts: int = Field(0, ge=0, le=64, description="DeepSeek-style shared experts of moe_intermediate_size")
    shared_expert_intermediate_size: int = Field(0, ge=0, description="Qwen2-MoE-style single shared expert")
    shared_expert_gate: bool = False
    router_bias: bool = Field(False, description="router correction bias (DeepSeek-V3 e_score_correction_bias)")
    expert_bias: bool = Field(False, description="each routed expert's projections carry biases (gpt-oss)")
    moe_layers: tuple[bool, ...] = Field((), description="per layer: True when its MLP is a MoE block")

    # Multi-head latent attention (DeepSeek-V2/V3)
    q_lora_rank: int | None = Field(None, gt=0)
    kv_lora_rank: int = Field(0, ge=0)
    qk_rope_head_dim: int = Field(0, ge=0)
    qk_nope_head_dim: int = Field(0, ge=0)
    v_head_dim: int = Field(0, ge=0)

    # Sliding-window attention
    sliding_window: int | None = Field(None, gt=0)
    layer_types: tuple[LayerAttention, ...] = Field((), description="per layer: full, sliding, linear or chunked attention")
    attention_chunk_size: int | None = Field(None, gt=0, description="Llama 4's local-attention chunk in tokens")

    # Gated DeltaNet linear-attention layers (Qwen3-Next): shapes of their projections and of the per-sequence state
    linear_num_key_heads: int = Field(0, ge=0, le=4096)
    linear_num_value_heads: int = Field(0, ge=0, le=4096)
    linear_key_head_dim: int = Field(0, ge=0, le=4096)
    linear_value_head_dim: int = Field(0, ge=0, le=4096)
    linear_conv_kernel_dim: int = Field(0, ge=0, le=64)
    linear_state_dtype: Literal["float32", "bfloat16", "float16"] | None = Field(
        None, description="the recurrent state's dtype when the config names one (Qwen3.5's mamba_ssm_dtype float32, "
        "which vLLM follows); None: the model's dtype, as for Qwen3-Next"
    )

    # Vision encoder stored in the checkpoint (Gemma 3's SigLIP tower and its projector into the text model)
    vision_hidden_size: int = Field(0, ge=0, le=65536)
    vision_intermediate_size: int = Field(0, ge=0, le=1_000_000)
    vision_layers: int = Field(0, ge=0, le=1024)
    vision_image_size: int = Field(0, ge=0, le=100_000)
    vision_patch_size: int = Field(0, ge=0, le=1024)
    vision_channels: int = Field(3, ge=1, le=16)
    vision_kind: Literal["siglip", "llama4", "qwen2_5_vl", "qwen3_vl"] = "siglip"
    vision_position_embeddings: int = Field(0, ge=0, le=1_000_000, description="Qwen3-VL: learned patch positions (num_position_embeddings)")
    vision_deepstack: int = Field(0, ge=0, le=64, description="Qwen3-VL: extra mergers feeding early text layers (deepstack_visual_indexes)")
    vision_temporal_patch: int = Field(1, ge=1, le=16, description="Qwen2.5-VL: frames one patch spans (temporal_patch_size)")
    vision_merge: int = Field(1, ge=1, le=16, description="Qwen2.5-VL: patches merged per side into one token (spatial_merge_size)")
    vision_projector_in: int = Field(0, ge=0, le=1_000_000, description="Llama 4's vision adapter width (projector_input_dim)")
    vision_projector_out: int = Field(0, ge=0, le=1_000_000, description="Llama 4's projector_output_dim")
    vision_output_dim: int = Field(0, ge=0, le=1_000_000, description="Llama 4: what multi_modal_projector maps to the text width")
    image_tokens: int | None = Field(None, gt=0, description="tokens one image takes in the prompt (Gemma 3: 256)")

    num_mtp_layers: int = Field(0, ge=0, le=8, description="multi-token-prediction layers stored in the checkpoint")
    mtp_style: Literal["deepseek", "qwen3_next"] = Field(
        "deepseek", description="DeepSeek's MTP layer stores its own embedding and head; Qwen3-Next's shares the model's"
    )
    checkpoint_quant: str | None = Field(None, description="the checkpoint's own quantization (e.g. fp8 block-wise)")
    quant_group_size: int | None = None
    # s16-models (#28 GPTQ/AWQ layers kept in 16 bits): what the checkpoint's quantization_config keeps unquantized,
    # as advisor/sizing/unquantized.py reads it (advisor/domain/unquantized_rules.py: GPTQ dynamic keys in order,
    # then modules_to_not_convert)
    quant_kept_16bit: tuple[str, ...] = Field((), description="modules the checkpoint's quantization leaves in 16 bits")

    @model_validator(mode="after")
    def _consistent(self) -> ModelSpec:
        if self.num_attention_heads % self.num_kv_heads != 0:
            raise ValueError(tr("domain.model.heads_multiple", heads=self.num_attention_heads, kv_heads=self.num_kv_heads))
        if self.is_moe:
            if not 0 < self.num_experts_per_tok <= self.num_experts:
                raise ValueError(
                    tr("domain.model.experts_per_token", per_token=self.num_experts_per_tok, experts=self.num_experts)
                )
            if self.moe_intermediate_size <= 0:
                raise ValueError(tr("domain.model.moe_width"))
            if len(self.moe_layers) != self.num_layers:
                raise ValueError(tr("domain.model.moe_layers"))
        elif self.intermediate_size <= 0:
            raise ValueError(tr("domain.model.dense_width"))
        if self.is_mla and (self.qk_rope_head_dim <= 0 or self.v_head_dim <= 0 or self.qk_nope_head_dim <= 0):
            raise ValueError(tr("domain.model.mla_dims"))
        if self.layer_types and len(self.layer_types) != self.num_layers:
            raise ValueError(tr("domain.model.layer_types_count", listed=len(self.layer_types), layers=self.num_layers))
        if "sliding" in self.layer_types and not self.sliding_window:
            raise ValueError(tr("domain.model.sliding_window"))
        if "linear" in self.layer_types and not (
            self.linear_num_key_heads and self.linear_num_value_heads and self.linear_key_head_dim
            and self.linear_value_head_dim and self.linear_conv_kernel_dim
        ):
            raise ValueError(tr("domain.model.linear_attention"))
        if "chunked" in self.layer_types and not self.attention_chunk_size:
            raise ValueError(tr("domain.model.chunk_size"))
        dynamic = self.vision_kind in ("qwen2_5_vl", "qwen3_vl")  # any resolution: no fixed image_size
        if self.vision_layers and not (self.vision_hidden_size and self.vision_intermediate_size and self.vision_patch_size
                                       and (self.vision_image_size or dynamic)):
            raise ValueError(tr("domain.model.vision"))
        return self

    @property
    def native_weights(self) -> str:
        """The weight format the checkpoint ships in (its own quantization, else BF16): what a size or a prediction
        uses when the user names none. One definition (it was written out in four places)."""
        return self.checkpoint_quant or "bf16"

    def weights_or_native(self, weights: str | None) -> str:
        """``weights`` when given, else the checkpoint's own format."""
        return weights or self.native_weights

    @property
    def is_moe(self) -> bool:
        return self.num_experts > 0

    @property
    def is_mla(self) -> bool:
        return self.kv_lora_rank > 0

    @property
    def num_sliding_layers(self) -> int:
        return sum(1 for t in self.layer_types if t == "sliding")

    @property
    def num_chunked_layers(self) -> int:
        return sum(1 for t in self.layer_types if t == "chunked")

    @property
    def num_linear_layers(self) -> int:
        return sum(1 for t in self.layer_types if t == "linear")

    @property
    def has_vision(self) -> bool:
        return self.vision_layers > 0

    @property
    def max_context(self) -> int:
        """Longest context the model supports as configured (rope scaling included)."""
        return self.max_position_embeddings

    @property
    def attention_kind(self) -> str:
        if self.is_mla:
            return "MLA"
        if self.num_kv_heads == self.num_attention_heads:
            return "MHA"
        if self.num_kv_heads == 1:
            return "MQA"
        return "GQA"
