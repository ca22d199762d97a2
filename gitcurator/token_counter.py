"""The token counter for catalogue figures: tiktoken's o200k_base when it is installed and its
encoding is already on disk, else the documented estimate (lifecycle/catalogue_cost)."""

from __future__ import annotations

import hashlib
import os
import tempfile
from functools import cache
from pathlib import Path

from gitcurator.lifecycle.catalogue_cost import ESTIMATE, TokenCounter, estimate_tokens

ENCODING = "o200k_base"
_ENCODING_URL = "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken"


def _cached_encoding_present() -> bool:
    """Whether tiktoken would load the encoding without the network (it fetches on first use,
    and a closed network can make that wait for minutes: never trigger it)."""
    if "TIKTOKEN_CACHE_DIR" in os.environ:
        folder = Path(os.environ["TIKTOKEN_CACHE_DIR"])
    elif "DATA_GYM_CACHE_DIR" in os.environ:
        folder = Path(os.environ["DATA_GYM_CACHE_DIR"])
    else:
        folder = Path(tempfile.gettempdir()) / "data-gym-cache"
    return (folder / hashlib.sha1(_ENCODING_URL.encode()).hexdigest()).is_file()


@cache
def token_counter() -> tuple[TokenCounter, str]:
    """(count, tokenizer name): the best counter available offline."""
    if os.environ.get("GITCURATOR_TOKENIZER") != ESTIMATE and _cached_encoding_present():
        try:
            import tiktoken

            encoding = tiktoken.get_encoding(ENCODING)
        except Exception:  # a broken install or cache file: the estimate still answers
            pass
        else:
            return (lambda text: len(encoding.encode(text, disallowed_special=()))), ENCODING
    return estimate_tokens, ESTIMATE
