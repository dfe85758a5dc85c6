#!/usr/bin/env python3
"""Sanity check for the bundled offline catalogue (Sources/App/Resources/catalog/movies-YYYY.json).

Usage: python3 scripts/check_catalog.py [CATALOG_DIR]
Prints a one-line summary and exits non-zero if any check fails.
"""
import datetime
import glob
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_DIR = os.path.join(HERE, "..", "Sources", "App", "Resources", "catalog")
MIN_FILMS = 150
MIN_YEARS = 8
REQUIRED_YEARS = (2024, 2025, 2026)


def release_year(text):
    """UTC year of an iTunes releaseDate ("2023-07-21T07:00:00Z"), as the app computes it."""
    stamp = datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))
    if stamp.tzinfo is not None:
        stamp = stamp.astimezone(datetime.timezone.utc)
    return stamp.year


def check(directory):
    errors = []
    ids = {}
    per_year = {}
    files = sorted(glob.glob(os.path.join(directory, "movies-*.json")))
    if not files:
        errors.append(f"no movies-*.json files in {directory}")
    for path in files:
        name = os.path.basename(path)
        match = re.fullmatch(r"movies-(\d{4})\.json", name)
        if not match:
            errors.append(f"{name}: file name is not movies-YYYY.json")
            continue
        file_year = int(match.group(1))
        try:
            with open(path, encoding="utf-8") as handle:
                body = json.load(handle)
        except (OSError, ValueError) as error:
            errors.append(f"{name}: invalid JSON: {error}")
            continue
        results = body.get("results") if isinstance(body, dict) else None
        if not isinstance(results, list):
            errors.append(f"{name}: no results array")
            continue
        if body.get("resultCount") != len(results):
            errors.append(f"{name}: resultCount {body.get('resultCount')} != {len(results)} results")
        for index, item in enumerate(results):
            where = f"{name}[{index}]"
            if not isinstance(item, dict):
                errors.append(f"{where}: not an object")
                continue
            track_id = item.get("trackId")
            if not isinstance(track_id, int) or isinstance(track_id, bool):
                errors.append(f"{where}: trackId missing or not an integer")
            elif track_id in ids:
                errors.append(f"{where}: trackId {track_id} duplicates {ids[track_id]}")
            else:
                ids[track_id] = where
            title = item.get("trackName")
            if not isinstance(title, str) or not title.strip():
                errors.append(f"{where}: trackName missing")
            else:
                where = f"{where} ({title})"
            if item.get("kind") != "feature-movie":
                errors.append(f"{where}: kind is {item.get('kind')!r}, expected 'feature-movie'")
            description = item.get("longDescription")
            if not isinstance(description, str) or not description.strip():
                errors.append(f"{where}: longDescription missing")
            released = item.get("releaseDate")
            try:
                year = release_year(released)
            except (TypeError, ValueError):
                errors.append(f"{where}: releaseDate {released!r} is not ISO 8601")
                continue
            if year != file_year:
                errors.append(f"{where}: released in {year}, but the file is for {file_year}")
            per_year[file_year] = per_year.get(file_year, 0) + 1
    total = sum(per_year.values())
    if total < MIN_FILMS:
        errors.append(f"only {total} films (need at least {MIN_FILMS})")
    if len(per_year) < MIN_YEARS:
        errors.append(f"films in only {len(per_year)} years (need at least {MIN_YEARS})")
    for year in REQUIRED_YEARS:
        if not per_year.get(year):
            errors.append(f"no films for {year}")
    return total, per_year, errors


def main():
    directory = sys.argv[1] if len(sys.argv) > 1 else DEFAULT_DIR
    total, per_year, errors = check(directory)
    span = f"{min(per_year)}-{max(per_year)}" if per_year else "none"
    for error in errors:
        print(f"error: {error}", file=sys.stderr)
    status = "FAILED" if errors else "ok"
    print(f"catalog: {total} films over {len(per_year)} years ({span})" + ("" if not errors else f" — {status}, {len(errors)} problem(s)"))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
