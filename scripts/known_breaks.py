"""known_breaks.py - the --known rule that scripts/arch.py and scripts/sizes.py share: a broken
rule whose text holds a --known TEXT is reported as known, not as a failure, and a --known that
matches nothing is stale (the break is gone: drop the --known), so the list only shrinks."""


def report(title, broken, known):
    """Print "TITLE: N broken, of which K known" and each break and stale --known.
    Returns 1 when a break is not known or a --known is stale, else 0."""
    failed = [b for b in broken if not any(k in b for k in known)]
    stale = [k for k in known if not any(k in b for b in broken)]
    print("\n%s: %d broken, of which %d known" % (title, len(broken), len(broken) - len(failed)))
    for b in broken:
        print("  %s: %s" % ("BROKEN" if b in failed else "known", b))
    for k in stale:
        print("  STALE --known: nothing is broken any more that says: " + k)
    return 1 if failed or stale else 0
