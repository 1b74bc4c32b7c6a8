"""Speculative decoding's command-line flags, one set for `advisor calc` and `advisor predict` (issue #28)."""

from __future__ import annotations

import argparse

from advisor.cli.common import UserError, positive_int

# --speculative's choices and vLLM's method each names (SpeculativeSettings.method)
CLI_METHODS = {"draft": "draft_model", "eagle": "eagle", "eagle3": "eagle3", "mtp": "mtp", "ngram": "ngram"}


def add_speculative_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--speculative", default=None, choices=list(CLI_METHODS),
                   help="speculative decoding as vLLM runs it: 'draft' a draft model (--draft-model), 'eagle'/'eagle3' an "
                   "EAGLE head (--draft-model: the head's config.json), 'mtp' the model's own multi-token-prediction layers "
                   "(DeepSeek-V3), 'ngram' prompt look-up (no weights, no KV). Its weights and KV are sized beside the "
                   "model's; each request keeps --num-speculative-tokens more KV slots (not for ngram)")
    p.add_argument("--draft-model", default=None,
                   help="the draft model (preset id or config.json path) for --speculative draft (the default when only "
                   "this is given), or the EAGLE head's config.json for eagle/eagle3, or an EAGLE-3 head preset "
                   "(eagle3-<model>-specforge: the heads SGLang's SpecForge released for llama-3.1-8b-instruct, "
                   "qwen3-30b-a3b and qwen3-235b-a22b, in the shape it trains them in)")
    p.add_argument("--num-speculative-tokens", type=positive_int, default=None,
                   help="tokens proposed per step (required with --speculative or --draft-model)")
    p.add_argument("--draft-vocab-size", type=positive_int, default=None,
                   help="an EAGLE-3 head's draft vocabulary (default: its config.json's draft_vocab_size, else its vocab_size)")
    p.add_argument("--draft-weights", default=None, help="the draft checkpoint's weight format (default: its own "
                   "quantization, else bf16)")


def speculative_from_args(args: argparse.Namespace):
    """SpeculativeSettings from the flags, None without speculative decoding; UserError on a flag missing its pair.
    Catalog and import errors of the draft model pass through (the caller reports them as for --model)."""
    from advisor.catalog import resolve_model
    from advisor.domain.sizing import SpeculativeSettings
    from advisor.i18n import tr
    from advisor.sizing.speculative import config_draft_vocab
    from advisor.sizing.speculative_heads import head_preset

    method = CLI_METHODS[args.speculative] if args.speculative else ("draft_model" if args.draft_model else None)
    if method is None:
        if args.num_speculative_tokens is not None:
            raise UserError(tr("sizing24_models24.cli_pair"))
        return None
    if args.num_speculative_tokens is None:
        raise UserError(tr("speculative25_spec28.cli_tokens"))
    preset = head_preset(args.draft_model) if args.draft_model is not None else None  # an EAGLE-3 head preset
    draft = preset.head if preset else resolve_model(args.draft_model) if args.draft_model is not None else None
    vocab = args.draft_vocab_size or (
        (preset.draft_vocab_size if preset else config_draft_vocab(args.draft_model)) if method == "eagle3" else None
    )
    return SpeculativeSettings(method=method, draft_model=draft, num_speculative_tokens=args.num_speculative_tokens,
                               draft_weights=draft.weights_or_native(args.draft_weights) if draft else "bf16",
                               draft_vocab_size=vocab)  # fmt: skip


__all__ = ["CLI_METHODS", "add_speculative_arguments", "speculative_from_args"]
