"""Generate the feedback sounds of resources/sounds/ (ours, CC0): python scripts/make_sounds.py."""

from __future__ import annotations

import math
import struct
import wave
from pathlib import Path

RATE = 22050
OUT = Path(__file__).resolve().parent.parent / "resources" / "sounds"


def tone(notes: list[tuple[float, float]], volume: float = 0.35) -> bytes:
    """16-bit mono PCM of (frequency Hz, seconds) notes, each with a short fade to avoid clicks."""
    frames = bytearray()
    for freq, secs in notes:
        n = int(RATE * secs)
        fade = int(RATE * 0.01)
        for i in range(n):
            env = min(1.0, i / fade, (n - i) / fade)
            sample = volume * env * math.sin(2 * math.pi * freq * i / RATE)
            frames += struct.pack("<h", int(sample * 32767))
    return bytes(frames)


def write(name: str, pcm: bytes) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with wave.open(str(OUT / name), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(pcm)


if __name__ == "__main__":
    write("success.wav", tone([(880.0, 0.07), (1318.5, 0.11)]))  # rising: done
    write("failure.wav", tone([(392.0, 0.16), (261.6, 0.24)]))  # falling, longer: look here
    write("attention.wav", tone([(660.0, 0.08), (0.0, 0.05), (660.0, 0.08)]))  # double beep
    print(f"wrote sounds to {OUT}")
