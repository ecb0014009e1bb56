"""House rules profiles (DESIGN.md "House rules"): the operator's folder, HOUSE_RULES_DIR,
one `<name>.toml` a profile with a request object's keys (banned, banned_as_commander,
unbanned, max_bracket, name) plus `title` and `description`.

Profiles are read at start and again when a file changes: a request naming a profile
costs one stat of its file (its bytes decide while the file is under QUIET_SECONDS old).
A broken file is reported (the log, /readyz) and not served; the others still are. Each
version of a profile resolves its names once per store build (Profile.rules).
"""

from __future__ import annotations

import hashlib
import logging
import os
import threading
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from stat import S_ISREG
from typing import Any

from card_data import CardRepository, Deadline
from edh_service.house_rules import (
    HOUSE_BRACKETS, LISTS, MAX_DESCRIPTION_LENGTH, MAX_PROFILE_BYTES, MAX_PROFILE_NAMES, MAX_PROFILES,
    MAX_TEXT_LENGTH, PROFILE_NAME, HouseList, HouseRulesError, UnknownProfile, answer,
    resolve,
)
from validator.formats import HouseRules
from validator.parse import MAX_NAME_LENGTH
from validator.messages import Names, Text, msg

log = logging.getLogger(__name__)

PROFILE_KEYS = frozenset({*LISTS, "max_bracket", "name", "title", "description"})
# A file written this recently may change again within its mtime's tick: its bytes decide.
QUIET_SECONDS = 1.0


@dataclass(eq=False)
class Profile:
    """One readable profile file, as read: a new object for each version of the file."""

    name: str  # the file's stem
    house: HouseList
    title: str | None
    description: str | None
    stamp: tuple  # (inode, device, mtime_ns, size) when read
    digest: bytes  # its bytes' hash: an unsettled stamp re-reads them and compares
    path: str = ""  # the file, as Profiles stats it on each request naming the profile
    # (store build, what it resolved to: HouseRules or the UnresolvedNames it raised)
    resolved: tuple[str | None, HouseRules | HouseRulesError] | None = None
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def rules(self, repository: CardRepository, build: str | None, *,
              lookup: Deadline | None = None) -> HouseRules:
        """Its names resolved (house_rules.resolve), once per store build (`build`: the
        deck's Resolution's): a failure is kept too, so 10,000 names are not asked again
        on every request, unless the card database did not answer in time for some.
        Raises UnresolvedNames."""
        held = self.resolved
        if held is None or held[0] != build or build is None:
            with self.lock:  # one thread resolves a version's names; the others wait for it
                held = self.resolved
                if held is None or held[0] != build or build is None:
                    try:
                        held = (build, resolve(self.house, repository, lookup=lookup))
                    except HouseRulesError as error:
                        held = (None if getattr(error, "unavailable", ()) else build, error)
                    self.resolved = held
        return answer(held[1])

    def listing(self) -> dict[str, Any]:
        """The profile as GET /api/v1/house-rules lists it."""
        return {"name": self.name, "title": self.title, "description": self.description,
                **self.house.counts(), "max_bracket": self.house.max_bracket}


def read_profile(path: Path, name: str | None = None) -> Profile:
    """One profile file: TOML with the request object's keys plus `title` and
    `description`, bounded (MAX_PROFILE_BYTES, MAX_PROFILE_NAMES, name lengths). Raises
    HouseRulesError saying what is wrong (and where, for a TOML syntax error), OSError
    when it cannot be read."""
    data, stamp = _file_bytes(path)
    return profile_from_bytes(data, name or path.stem, stamp)


def _file_bytes(path: Path) -> tuple[bytes, tuple]:
    """A profile file's bytes (MAX_PROFILE_BYTES at most) and its stamp as it was read."""
    with open(path, "rb") as handle:
        stat = os.fstat(handle.fileno())
        if not S_ISREG(stat.st_mode):
            raise HouseRulesError("not a regular file")
        data = handle.read(MAX_PROFILE_BYTES + 1)
    if len(data) > MAX_PROFILE_BYTES:
        raise HouseRulesError(f"over {MAX_PROFILE_BYTES // 1024 // 1024} MiB")
    return data, _stamp(stat)


def profile_from_bytes(data: bytes, name: str, stamp: tuple = ()) -> Profile:
    """A profile from its file's bytes (see read_profile)."""
    try:
        table = tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError as error:
        raise HouseRulesError(f"not UTF-8 text (byte {error.start})") from None
    except tomllib.TOMLDecodeError as error:
        raise HouseRulesError(f"not valid TOML: {error}") from None
    except RecursionError:
        raise HouseRulesError("not valid TOML: nested too deeply") from None
    unknown = sorted(set(table) - PROFILE_KEYS)
    if unknown:
        raise HouseRulesError(f"unknown key {unknown[0]!r}; a profile has {', '.join(sorted(PROFILE_KEYS))}")
    lists = {key: _names(table.get(key, []), key) for key in LISTS}
    total = sum(len(names) for names in lists.values())
    if total > MAX_PROFILE_NAMES:
        raise HouseRulesError(f"{total:,} names; a profile holds at most {MAX_PROFILE_NAMES:,}")
    bracket = table.get("max_bracket")
    if bracket is not None and (type(bracket) is not int or bracket not in HOUSE_BRACKETS):
        raise HouseRulesError(f"max_bracket is {bracket!r}; it is a whole number from 1 to 4")
    shown = {key: _text(table.get(key), key, MAX_DESCRIPTION_LENGTH if key == "description" else MAX_TEXT_LENGTH)
             for key in ("name", "title", "description")}
    title = shown["title"] or shown["name"]
    house = HouseList(**lists, max_bracket=bracket, name=title or name, profile=name)
    return Profile(name, house, title, shown["description"], stamp, _digest(data))


def _digest(data: bytes) -> bytes:
    """A file's bytes, hashed: the same digest is the same version."""
    return hashlib.blake2b(data, digest_size=16).digest()


def _names(value: Any, key: str) -> tuple[str, ...]:
    """A list of card names from a profile, stripped and without repeats."""
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise HouseRulesError(f"{key} is not a list of card names")
    names = tuple(dict.fromkeys(item.strip() for item in value))
    for name in names:
        if not 1 <= len(name) <= MAX_NAME_LENGTH:
            raise HouseRulesError(f"{key} holds a name of {len(name)} characters; a name has 1 to {MAX_NAME_LENGTH}")
    return names


def _text(value: Any, key: str, limit: int) -> str | None:
    """A profile's name, title or description: text of at most `limit` characters, or None."""
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > limit:
        raise HouseRulesError(f"{key} is not text of at most {limit} characters")
    return value.strip() or None


def _stamp(stat: os.stat_result) -> tuple:
    """What says a file is unchanged: the same file (inode), mtime and size."""
    return (stat.st_ino, stat.st_dev, stat.st_mtime_ns, stat.st_size)


def _settled(stamp: tuple) -> bool:
    """Written over QUIET_SECONDS ago: a later write would give the file another stamp."""
    return time.time_ns() - stamp[2] > QUIET_SECONDS * 1e9


# --- the operator's folder ----------------------------------------------------------------

EXTENSION = "house_rules_profiles"  # the app.extensions key of the app's Profiles (factory.py)


def profiles_in(extensions: dict) -> "Profiles":
    """The app's Profiles, from its app.extensions (no flask here: the caller hands them in)."""
    return extensions[EXTENSION]



# A profile name the folder does not serve: (its file is broken, some profile is served) -> the sentence.
UNKNOWN_PROFILE = {
    (False, True): msg("No house rules profile is named {name}; the known ones: {known}."),
    (False, False): msg("No house rules profile is named {name}; none is configured (HOUSE_RULES_DIR)."),
    (True, True): msg("The house rules profile {name} could not be read ({reason}); the known ones: {known}."),
    (True, False): msg("The house rules profile {name} could not be read ({reason}); none is configured "
                       "(HOUSE_RULES_DIR)."),
}

class Profiles:
    """The profiles of one folder (None: no profiles), read at start and when they change."""

    def __init__(self, folder: str | os.PathLike | None) -> None:
        self.folder = Path(folder) if folder else None
        self._profiles: dict[str, Profile] = {}
        self._broken: dict[str, str] = {}  # file name -> why it is not served
        self._folder_stamp: tuple | None = None
        self._lock = threading.Lock()
        self.refresh()

    def get(self, name: str) -> Profile:
        """The current version of a profile: one stat of its file when it was read before
        (re-read when the file changed); the folder is looked at again for a name it does
        not know. Raises UnknownProfile (listing the known ones) for none or a broken one."""
        profile = self._profiles.get(name)
        if profile is not None:
            try:
                stamp = _stamp(os.stat(profile.path))  # a str: a Path joined per request cost as much again
            except OSError:
                stamp = None
            if stamp == profile.stamp and _settled(stamp):
                return profile
            with self._lock:
                self._read(f"{name}.toml", stamp)
        else:
            self.refresh()
        found = self._profiles.get(name)
        if found is None:
            raise self._unknown(name)
        return found

    def refresh(self) -> None:
        """Look at the folder again when it changed (a file added, renamed or removed), and
        at every file in it: read the changed ones, forget the removed ones."""
        if self.folder is None:
            return
        try:
            folder_stamp = _stamp(os.stat(self.folder))
        except OSError as error:
            with self._lock:
                if self._broken.get("") is None:
                    log.warning("HOUSE_RULES_DIR %s cannot be read: %s", self.folder, error)
                self._profiles, self._broken = {}, {"": "the folder cannot be read"}
                self._folder_stamp = None
            return
        with self._lock:
            if folder_stamp == self._folder_stamp and _settled(folder_stamp):
                files = [f"{name}.toml" for name in self._profiles] + [f for f in self._broken if f]
            else:
                files = self._listed()
                self._folder_stamp = folder_stamp
            for file in files:
                try:
                    stamp = _stamp(os.stat(self.folder / file))
                except OSError:
                    stamp = None
                self._read(file, stamp)

    def _listed(self) -> list[str]:
        """The folder's .toml files (MAX_PROFILES at most: the rest are reported), forgetting
        the profiles and errors of files no longer there."""
        try:
            files = sorted(entry.name for entry in os.scandir(self.folder) if entry.name.endswith(".toml"))
        except OSError as error:
            log.warning("HOUSE_RULES_DIR %s cannot be read: %s", self.folder, error)
            files = []
        kept = set(files[:MAX_PROFILES])
        self._profiles = {name: p for name, p in self._profiles.items() if f"{name}.toml" in kept}
        self._broken = {file: why for file, why in self._broken.items() if file in kept}
        for file in files[MAX_PROFILES:]:
            self._broken[file] = f"not read: the folder holds more than {MAX_PROFILES} profiles"
        return files[:MAX_PROFILES]

    def _read(self, file: str, stamp: tuple | None) -> None:
        """Read one file again if its stamp says it changed (an unsettled one: if its bytes
        did); a file gone is forgotten, a broken one reported and not served. Holds the lock."""
        name = file[: -len(".toml")]
        held = self._profiles.get(name)
        assert self.folder is not None  # only a folder's files are read
        if stamp is None:
            self._profiles.pop(name, None)
            self._broken.pop(file, None)
            return
        if held is not None and held.stamp == stamp and _settled(stamp):
            return
        if not PROFILE_NAME.match(name):
            self._reject(file, "the file's name is no profile name (a-z, 0-9, - and _, up to 64, then .toml)")
            return
        try:
            data, read_stamp = _file_bytes(self.folder / file)
            if held is not None and held.digest == _digest(data):
                held.stamp = read_stamp  # the same bytes: the same version, its resolved names kept
                return
            profile = profile_from_bytes(data, name, read_stamp)
        except (OSError, HouseRulesError) as error:
            self._reject(file, str(error))
            return
        profile.path = str(self.folder / file)
        self._profiles[name] = profile
        if self._broken.pop(file, None) is not None or held is not None:
            log.info("house rules profile %s read again", name)

    def _reject(self, file: str, why: str) -> None:
        """Report a broken profile (once per distinct error) and stop serving it."""
        self._profiles.pop(file[: -len(".toml")], None)
        if self._broken.get(file) != why:
            log.warning("house rules profile %s is not served: %s", file, why)
        self._broken[file] = why

    def _unknown(self, name: str) -> UnknownProfile:
        """The error for a name no served profile has."""
        known = sorted(self._profiles)
        broken = self._broken.get(f"{name}.toml")
        shown = repr(name if len(name) <= 64 else name[:63] + "…")
        sentence = UNKNOWN_PROFILE[broken is not None, bool(known)]
        return UnknownProfile(Text(sentence.id, (("name", shown), ("reason", broken or ""), ("known", Names(known)))))

    def listing(self) -> list[dict[str, Any]]:
        """Every served profile, by name (GET /api/v1/house-rules)."""
        self.refresh()
        return [self._profiles[name].listing() for name in sorted(self._profiles)]

    def names(self) -> list[str]:
        """The served profiles' names, sorted."""
        return sorted(self._profiles)

    def status(self) -> dict[str, Any]:
        """What /readyz says: how many profiles are served, and each broken file and why."""
        self.refresh()
        return {"profiles": len(self._profiles),
                "broken": [{"file": file, "error": why} for file, why in sorted(self._broken.items())]}
