"""What the Sizing page can pick (advisor/sizing/choices.py): the format that follows a new model, and the user's
own models and GPUs beside the catalog's."""

from advisor import catalog
from advisor.sizing.choices import SizingChoices, weights_for_new_model


def _model(model_id: str):
    return next(m for m in catalog.load_models() if m.id == model_id)


def test_the_format_follows_the_model_unless_the_user_chose_another():
    plain, oss, deepseek = _model("qwen2.5-7b-instruct"), _model("gpt-oss-20b"), _model("deepseek-v3")
    assert weights_for_new_model("bf16", plain, oss) == "mxfp4"  # the checkpoint's own format
    assert weights_for_new_model("mxfp4", oss, deepseek) == "fp8-block"
    assert weights_for_new_model("fp8-block", deepseek, plain) == "bf16"
    assert weights_for_new_model("awq-int4", plain, oss) == "awq-int4"  # the user's choice stays


def test_imported_models_and_described_gpus_join_the_pickers_marked_as_such():
    choices = SizingChoices()
    model = _model("qwen2.5-7b-instruct").model_copy(update={"id": "my-model", "name": "My model"})
    gpu = choices.gpus[0].model_copy(update={"id": "my-gpu", "name": "My GPU", "user_defined": True})
    choices.imported[model.id] = model
    choices.custom_gpus[gpu.id] = gpu
    assert choices.find_model("my-model") is model and choices.find_gpu("my-gpu") is gpu
    assert ("My model (imported)", "my-model") in choices.model_items()
    assert ("My GPU (custom)", "my-gpu") in choices.gpu_items()
    assert choices.all_gpus()[-1] is gpu and len(choices.all_gpus()) == len(choices.gpus) + 1
    assert choices.model_or_first("no-such-model") is choices.models[0]
