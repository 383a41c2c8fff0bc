"""Draws the content's SVG art: figure portraits, player likenesses and card backs.

The drawings are deliberately simple, stylised period busts and engraved-looking
card backs. Every choice (hat, whiskers, collar, palette) comes from a hash of
the record id, so running the generator again gives byte-identical files.

    python -m deadwood_knock.content.tools.art

rewrites every SVG under ``content/art/`` from the data files. The committed SVGs
are the shipped art; this script only explains and reproduces them.
"""

from __future__ import annotations

import hashlib
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

CONTENT = Path(__file__).resolve().parent.parent

# Sepia-toned palettes: (paper, ink, mid, accent).
PALETTES: tuple[tuple[str, str, str, str], ...] = (
    ("#f3e6c8", "#3b2a1a", "#8a6a45", "#b0413e"),
    ("#efe2c2", "#2f2a24", "#7d6b55", "#4e6e58"),
    ("#f5ead2", "#40251c", "#9a6b4f", "#30507a"),
    ("#ece0c0", "#2b2b2b", "#777061", "#8c5a2b"),
)


def _pick(key: str, salt: str, n: int) -> int:
    digest = hashlib.sha256(f"{salt}:{key}".encode()).digest()
    return digest[0] % n


@dataclass(frozen=True, slots=True)
class Bust:
    """The variable parts of one drawn bust."""

    hat: int  # 0 bare head, 1 low crown, 2 tall crown, 3 derby, 4 bonnet
    whiskers: int  # 0 none, 1 moustache, 2 handlebar, 3 full beard
    collar: int  # 0 bow tie, 1 string tie, 2 bandana, 3 lace collar
    palette: int
    star: bool  # a lawman's badge


def bust_for(key: str, *, female: bool = False, lawman: bool = False) -> Bust:
    if female:
        return Bust(
            hat=4 if _pick(key, "hat", 2) else 0,
            whiskers=0,
            collar=3,
            palette=_pick(key, "pal", len(PALETTES)),
            star=False,
        )
    return Bust(
        hat=_pick(key, "hat", 4),
        whiskers=_pick(key, "whisk", 4),
        collar=_pick(key, "collar", 3),
        palette=_pick(key, "pal", len(PALETTES)),
        star=lawman,
    )


def _hat(kind: int, ink: str, female: bool) -> str:
    if kind == 1:  # low-crowned, wide-brimmed plains hat
        return (
            f'<path d="M22 52 Q60 40 98 52 Q60 58 22 52Z" fill="{ink}"/>'
            f'<path d="M40 50 Q42 30 60 30 Q78 30 80 50Z" fill="{ink}"/>'
        )
    if kind == 2:  # tall crown with a band
        return (
            f'<path d="M20 54 Q60 42 100 54 Q60 60 20 54Z" fill="{ink}"/>'
            f'<path d="M42 52 L44 22 Q60 16 76 22 L78 52Z" fill="{ink}"/>'
            '<rect x="43" y="44" width="34" height="4" fill="#6b4b2a"/>'
        )
    if kind == 3:  # derby
        return (
            f'<ellipse cx="60" cy="50" rx="30" ry="5" fill="{ink}"/>'
            f'<path d="M40 50 Q40 24 60 24 Q80 24 80 50Z" fill="{ink}"/>'
        )
    if kind == 4:  # bonnet framing the face
        bonnet = "M34 74 Q30 28 60 26 Q90 28 86 74 Q80 44 60 42 Q40 44 34 74Z"
        return f'<path d="{bonnet}" fill="{ink}"/>'
    # Bare head: hair, with a bun or long hair for women.
    hair = f'<path d="M40 58 Q40 34 60 34 Q80 34 80 58 Q72 44 60 44 Q48 44 40 58Z" fill="{ink}"/>'
    if female:
        hair += f'<circle cx="60" cy="32" r="8" fill="{ink}"/>'
        hair += f'<path d="M40 58 Q36 80 42 92 L46 70Z M80 58 Q84 80 78 92 L74 70Z" fill="{ink}"/>'
    return hair


def _whiskers(kind: int, ink: str) -> str:
    if kind == 1:
        return f'<path d="M50 82 Q60 78 70 82 Q60 85 50 82Z" fill="{ink}"/>'
    if kind == 2:
        handlebar = "M44 80 Q52 84 60 79 Q68 84 76 80 Q70 88 60 83 Q50 88 44 80Z"
        return f'<path d="{handlebar}" fill="{ink}"/>'
    if kind == 3:
        beard = "M42 72 Q44 104 60 106 Q76 104 78 72 Q72 90 60 90 Q48 90 42 72Z"
        return f'<path d="{beard}" fill="{ink}"/>'
    return ""


def _collar(kind: int, ink: str, accent: str) -> str:
    if kind == 0:
        return f'<path d="M50 112 L60 117 L50 122Z M70 112 L60 117 L70 122Z" fill="{ink}"/>'
    if kind == 1:
        return f'<path d="M58 114 L56 134 M62 114 L64 134" stroke="{ink}" stroke-width="2"/>'
    if kind == 2:
        return f'<path d="M44 110 L60 126 L76 110 L70 118 L60 122 L50 118Z" fill="{accent}"/>'
    return (
        '<path d="M42 110 Q48 118 54 112 Q60 120 66 112 Q72 118 78 110 L74 122 L46 122Z" '
        'fill="#fffaf0" stroke="#9a8a70"/>'
    )


def portrait_svg(title: str, bust: Bust, *, female: bool = False) -> str:
    paper, ink, mid, accent = PALETTES[bust.palette]
    skin = "#e2c29a"
    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 150" width="120" height="150">',
        f"<title>{escape(title)}</title>",
        f'<rect width="120" height="150" rx="6" fill="{paper}"/>',
        f'<ellipse cx="60" cy="75" rx="54" ry="70" fill="none" stroke="{mid}" stroke-width="3"/>',
        # Coat and shoulders.
        f'<path d="M14 150 Q18 112 44 106 L60 124 L76 106 Q102 112 106 150Z" fill="{ink}"/>',
        '<path d="M44 106 L60 124 L76 106 L72 104 L60 114 L48 104Z" fill="#fffaf0"/>',
        _collar(bust.collar, ink, accent),
        # Neck and face.
        f'<rect x="52" y="88" width="16" height="18" fill="{skin}"/>',
        f'<ellipse cx="60" cy="70" rx="19" ry="24" fill="{skin}" stroke="{mid}"/>',
        f'<circle cx="53" cy="66" r="2" fill="{ink}"/><circle cx="67" cy="66" r="2" fill="{ink}"/>',
        f'<path d="M60 68 L58 77 L61 77" fill="none" stroke="{mid}" stroke-width="1.2"/>',
        f'<path d="M54 86 Q60 88 66 86" fill="none" stroke="{mid}" stroke-width="1.2"/>',
        _whiskers(bust.whiskers, ink),
        _hat(bust.hat, ink, female),
    ]
    if bust.star:
        parts.append(
            '<path d="M86 120 l2.4 5 5.4 .6 -4 3.7 1.1 5.3 -4.9-2.7 -4.9 2.7 1.1-5.3 '
            '-4-3.7 5.4-.6Z" fill="#c9a43a" stroke="#6b5318" stroke-width=".6"/>'
        )
    parts.append("</svg>")
    return "".join(parts) + "\n"


def card_back_svg(title: str, motif: str, ink: str, paper: str) -> str:
    """A card back: double border, engraved lattice and a medallion holding ``motif``."""
    lattice = "".join(
        f'<path d="M{x} 12 L{x + 48} 156 M{x + 48} 12 L{x} 156" stroke="{ink}" stroke-width=".7"/>'
        for x in range(-36, 120, 12)
    )
    emblems = {
        "plain": f'<circle cx="60" cy="84" r="18" fill="none" stroke="{ink}" stroke-width="2"/>',
        "star": (
            f'<path d="M60 62 l6 14 15 1 -11 10 4 15 -14-8 -14 8 4-15 -11-10 15-1Z" fill="{ink}"/>'
        ),
        "tiger": (
            f'<circle cx="47" cy="70" r="6" fill="{ink}"/>'
            f'<circle cx="73" cy="70" r="6" fill="{ink}"/>'
            f'<circle cx="60" cy="86" r="18" fill="{ink}"/>'
            f'<path d="M60 70 V78 M46 82 L53 85 M74 82 L67 85 M48 92 L54 91 M72 92 L66 91" '
            f'stroke="{paper}" stroke-width="2.5"/>'
            f'<circle cx="53" cy="83" r="2" fill="{paper}"/><circle cx="67" cy="83" r="2" '
            f'fill="{paper}"/><path d="M56 94 L60 97 L64 94" fill="none" stroke="{paper}" '
            'stroke-width="2"/>'
        ),
        "rails": (
            f'<path d="M34 66 L86 102 M34 102 L86 66" stroke="{ink}" stroke-width="4"/>'
            f'<circle cx="60" cy="84" r="10" fill="{paper}" stroke="{ink}" stroke-width="3"/>'
        ),
        "lode": f'<path d="M60 60 L80 84 L60 108 L40 84Z" fill="{ink}"/>',
        "poster": (
            f'<rect x="40" y="64" width="40" height="40" fill="{paper}" stroke="{ink}" '
            f'stroke-width="3"/><path d="M46 74 H74 M46 84 H74 M46 94 H66" stroke="{ink}" '
            f'stroke-width="3"/>'
        ),
        "riverboat": (
            f'<path d="M32 96 H88 L80 106 H40Z M44 96 V80 H76 V96 M52 80 V66 M68 80 V66" '
            f'fill="{ink}" stroke="{ink}" stroke-width="3"/>'
        ),
        "pine": f'<path d="M60 58 L80 100 H40Z M56 100 H64 V110 H56Z" fill="{ink}"/>',
        "aces": (
            f'<rect x="36" y="66" width="20" height="30" rx="2" fill="{paper}" stroke="{ink}"/>'
            f'<rect x="64" y="72" width="20" height="30" rx="2" fill="{paper}" stroke="{ink}"/>'
            f'<text x="46" y="86" font-size="12" text-anchor="middle" fill="{ink}">A</text>'
            f'<text x="74" y="92" font-size="12" text-anchor="middle" fill="{ink}">8</text>'
        ),
    }
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 168" width="120" height="168">'
        f"<title>{escape(title)}</title>"
        f'<defs><clipPath id="clip-{motif}">'
        '<rect x="10" y="10" width="100" height="148" rx="4"/></clipPath></defs>'
        f'<rect width="120" height="168" rx="8" fill="{paper}"/>'
        f'<g opacity=".45" clip-path="url(#clip-{motif})">{lattice}</g>'
        f'<rect x="6" y="6" width="108" height="156" rx="6" fill="none" stroke="{ink}" '
        'stroke-width="3"/>'
        f'<rect x="10" y="10" width="100" height="148" rx="4" fill="none" stroke="{ink}"/>'
        f'<ellipse cx="60" cy="84" rx="34" ry="42" fill="{paper}" stroke="{ink}" '
        'stroke-width="2"/>'
        f"{emblems[motif]}"
        "</svg>\n"
    )


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def generate(content: Path = CONTENT) -> int:
    """Rewrite every SVG named by the data files; returns how many were written."""
    data = content / "data"
    figures = json.loads((data / "figures.json").read_text(encoding="utf-8"))["figures"]
    count = 0
    for fig in figures:
        female = fig["id"] in FEMALE_FIGURES
        bust = bust_for(fig["id"], female=female, lawman=fig["role"] == "lawman")
        title = f"{fig['name']}: an artistic interpretation"
        _write(content / fig["portrait"], portrait_svg(title, bust, female=female))
        count += 1
    likenesses = json.loads((data / "likenesses.json").read_text(encoding="utf-8"))["likenesses"]
    for i, lk in enumerate(likenesses):
        female = lk["id"].startswith("lady-")
        bust = Bust(
            hat=4 if female and i % 2 else (0 if female else i % 4),
            whiskers=0 if female else (i // 2) % 4,
            collar=3 if female else i % 3,
            palette=i % len(PALETTES),
            star=lk["id"].endswith("-deputy"),
        )
        _write(content / lk["svg"], portrait_svg(lk["name"], bust, female=female))
        count += 1
    backs = json.loads((data / "card_backs.json").read_text(encoding="utf-8"))["card_backs"]
    for back in backs:
        motif, ink, paper = BACK_STYLES[back["id"]]
        _write(content / back["svg"], card_back_svg(back["name"], motif, ink, paper))
        count += 1
    return count


# Women among the figures, drawn without whiskers and with period hair or a bonnet.
FEMALE_FIGURES = frozenset(
    {
        "lottie-deno",
        "big-nose-kate",
        "eleanor-dumont",
        "kitty-leroy",
        "poker-alice",
        "calamity-jane",
        "china-mary",
        "nellie-cashman",
    }
)

# Card back id -> (emblem, ink, paper).
BACK_STYLES: dict[str, tuple[str, str, str]] = {
    "plain-ledger": ("plain", "#3b2a1a", "#f3e6c8"),
    "drovers-red": ("star", "#8e2b23", "#f1dfc4"),
    "faro-tiger": ("tiger", "#6b3e12", "#f4e3b5"),
    "railroad-scroll": ("rails", "#2f3b4a", "#e9e2cf"),
    "silver-lode": ("lode", "#5c6670", "#eceae4"),
    "wanted-sheet": ("poster", "#40251c", "#efe0bd"),
    "riverboat-gilt": ("riverboat", "#7a5a10", "#f6ecc9"),
    "black-hills-pine": ("pine", "#23402c", "#e8e4cf"),
    "aces-and-eights": ("aces", "#1c1c1c", "#f2ecdc"),
}


if __name__ == "__main__":  # pragma: no cover - a developer command
    sys.stdout.write(f"wrote {generate()} SVG files\n")
