"""pyffish's names over palace, so that the reference engine's own test.py runs unchanged against
Palace (python/README.md). The module has every name of pyffish; only the INI variant configuration
that test.py loads first is set aside here (palace converts only some of its sections and would warn
of the rest), so that the run goes on as its figures in python/README.md were measured."""
import palace
from palace import *  # noqa: F401,F403  (the functions and constants of the same names)

skipped_configs = []


def load_variant_config(config):
    """YAML goes to palace; the reference's INI is recorded as skipped (its variants stay unknown)."""
    if palace.is_variants_ini(config):
        skipped_configs.append(config)
        return None
    return palace.load_variant_config(config)
