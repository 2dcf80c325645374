"""A game's record as evidence: every file format a game leaves, its signatures
and their checks (spec/SPEC.md is the specification). Imports run downwards:

* ``step``: what a step is, as a verifier names it (versions first-last);
* ``text``: the text record (``tools record``): its grammar, format versions (1-5), writing and reading;
* ``export_file``: the export file (``tools export``, format 3): writing and reading;
* ``keys``: keys as a verifier is given them (key histories, lives, time order);
* ``end``: a finished game's signed end (made when written out, an imported one's kept) and its check;
* ``verdict``: what ``tools verify`` says;
* ``receipts``: seats' receipts and the step a receipt names;
* ``audit``: the audit (chain, seed, chance, corrections' form, seats' signatures, the rules' re-run);
* ``export``: an export's signatures, keys and parents, its trust on import, its check;
* ``text_signed``: the text record's ``GameId`` and sign lines, their check and trust on import;
* ``verify``: ``tools verify FILE``;
* ``history``: fork, export and import of a game; ``text_import``: a text record played back.
"""
