"""``analyzer tiles encode`` as a library call: files of hand records to files of tile codes, in chunks.

Encoding is row by row, so the rows are read in input order a chunk at a time (:func:`analyzer.run.plan.
row_chunks`) and each chunk's codes are appended to the output as soon as they are made: memory depends on the
chunk size, not on the input size.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from analyzer.io.load import InputError, expand_inputs
from analyzer.io.write import ResultWriter
from analyzer.run.plan import DEFAULT_PARTITION_ROWS, row_chunks
from analyzer.core.schema import INPUT_POSITION, SOURCE_FILE, SOURCE_ROW
from analyzer.tiles.codes import TEXT_COLUMNS, encode_tiles


@dataclass
class EncodeSummary:
    rows: int
    hands: int
    errors: dict[int, int] = field(default_factory=dict)  # tc_error code -> rows
    path: Path | None = None


def encode_to(
    inputs: str | Path | list[str | Path],
    output: str | Path,
    *,
    drop_text: bool = False,
    chunk_rows: int = DEFAULT_PARTITION_ROWS,
    progress: Callable[[int, int, int], None] | None = None,
) -> EncodeSummary:
    """Encode the tiles of every row of ``inputs`` into ``output`` (.parquet or .csv), written atomically."""
    output = Path(output)
    files = expand_inputs([inputs] if isinstance(inputs, (str, Path)) else list(inputs))
    fmt = "csv" if output.suffix.lower() == ".csv" else "parquet"
    writer = None
    summary = EncodeSummary(rows=0, hands=0)
    try:
        for number, chunk in enumerate(row_chunks(files, chunk_rows), start=1):
            if "hand" not in chunk.collect_schema():
                raise InputError("no 'hand' column (MPSZ tiles) in " + ", ".join(map(str, files)))
            codes = encode_tiles(chunk).drop(SOURCE_FILE, SOURCE_ROW, INPUT_POSITION).collect()
            if drop_text:
                codes = codes.drop(TEXT_COLUMNS, strict=False)
            if writer is None:
                writer = ResultWriter(output.parent, fmt, file_names={"codes": output.name})
            writer.append("codes", codes)
            summary.rows += codes.height
            summary.hands += int(codes["tc_m"].is_not_null().sum())
            counts = codes.filter(pl.col("tc_error") > 0).group_by("tc_error").len()
            for code, count in zip(counts["tc_error"], counts["len"]):
                summary.errors[code] = summary.errors.get(code, 0) + count
            if progress is not None:
                progress(summary.rows, -1, number)
        if writer is not None:
            summary.path = writer.commit()["codes"]
    except BaseException:
        if writer is not None:
            writer.abort()
        raise
    return summary
