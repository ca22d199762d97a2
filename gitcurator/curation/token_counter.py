"""The token counter for catalogue figures: tiktoken's o200k_base when it is installed and its
encoding is already on disk, else the documented estimate (lifecycle/catalogue_cost)."""

from __future__ import annotations

import hashlib
import importlib
import os
import tempfile
from functools import cache
from pathlib import Path

from gitcurator.lifecycle.catalogue_cost import ESTIMATE, TokenCounter, estimate_tokens

ENCODING = "o200k_base"
_ENCODING_URL = "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken"
# tiktoken's expected hash of that file (tiktoken_ext/openai_public.py), and a bound well above
# its 3.6 MB so a huge file at the path is not read to be hashed.
_ENCODING_SHA256 = "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d"
_MAX_ENCODING_BYTES = 16 << 20


def _cached_encoding_present() -> bool:
    """Whether tiktoken would load the encoding without the network (it fetches on first use,
    and a closed network can make that wait for minutes: never trigger it).

    The file must also be the right one: tiktoken deletes a cached file whose hash is wrong (a
    truncated download, a junk file) and fetches it again, so such a file means the estimate.
    """
    if "TIKTOKEN_CACHE_DIR" in os.environ:
        folder = os.environ["TIKTOKEN_CACHE_DIR"]
    elif "DATA_GYM_CACHE_DIR" in os.environ:
        folder = os.environ["DATA_GYM_CACHE_DIR"]
    else:
        folder = str(Path(tempfile.gettempdir()) / "data-gym-cache")
    if not folder:  # tiktoken reads "" as "no cache": always the network
        return False
    path = Path(folder) / hashlib.sha1(_ENCODING_URL.encode()).hexdigest()
    try:
        if not path.is_file() or path.stat().st_size > _MAX_ENCODING_BYTES:
            return False
        return hashlib.sha256(path.read_bytes()).hexdigest() == _ENCODING_SHA256
    except OSError:
        return False


@cache
def token_counter() -> tuple[TokenCounter, str]:
    """(count, tokenizer name): the best counter available offline."""
    if os.environ.get("GITCURATOR_TOKENIZER") != ESTIMATE and _cached_encoding_present():
        try:
            # Optional and untyped where it is missing: imported by name, so neither mypy nor
            # a venv without it (CI installs only the test extra) needs it.
            encoding = importlib.import_module("tiktoken").get_encoding(ENCODING)
        except Exception:  # a broken install or cache file: the estimate still answers
            pass
        else:
            return (lambda text: len(encoding.encode(text, disallowed_special=()))), ENCODING
    return estimate_tokens, ESTIMATE
