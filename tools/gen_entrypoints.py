#!/usr/bin/env python3
"""Generates vkppu's Vulkan entry-point declarations and lookup tables.

usage: gen_entrypoints.py --xml vk.xml --extensions extensions.txt --out-dir DIR

Writes DIR/vkppu_entrypoints.h and DIR/vkppu_entrypoints.c:

  * a weak prototype vkppu_<Name> for every command of VK_VERSION_1_0..1_3 and
    of every extension listed in extensions.txt. A command that is an alias
    (vkBindBufferMemory2KHR -> vkBindBufferMemory2) gets no prototype: its name
    resolves to the aliased command's implementation.
  * a static fallback vkppu_unsupported_<Name> per command, used by lookups of
    core commands nobody implemented yet: an explicit "not supported", never
    a silent stub (/work/shared/STYLE.md, "From Mesa's Vulkan runtime").
  * the supported extension enums, VkExtensionProperties tables and name ->
    index functions.
  * lookup functions that gate every name by the versions/extensions that
    provide it, following the vkGetInstanceProcAddr / vkGetDeviceProcAddr
    tables of the Vulkan spec ("Command Function Pointers").

Only api="vulkan" content is used; vulkansc-only elements are skipped.
Python standard library only.
"""

import argparse
import os
import re
import sys
import xml.etree.ElementTree as ET

CORE_VERSIONS = ["VK_VERSION_1_0", "VK_VERSION_1_1", "VK_VERSION_1_2", "VK_VERSION_1_3"]
# Commands an application calls before it has an instance (spec: "global
# commands"). vkGetInstanceProcAddr itself is also answered for a NULL
# instance since Vulkan 1.2.193.
GLOBAL_FIRST_PARAM_EXCEPTIONS = {"vkGetInstanceProcAddr"}
DISPATCHABLE_DEVICE_HANDLES = {"VkDevice", "VkQueue", "VkCommandBuffer"}

LEVEL_GLOBAL, LEVEL_INSTANCE, LEVEL_PHYSICAL_DEVICE, LEVEL_DEVICE = range(4)
LEVEL_NAMES = ["VKPPU_EP_GLOBAL", "VKPPU_EP_INSTANCE", "VKPPU_EP_PHYSICAL_DEVICE", "VKPPU_EP_DEVICE"]

# Spec: vkCreateInstance / vkCreateDevice report VK_ERROR_INITIALIZATION_FAILED
# when "initialization of an object could not be completed for
# implementation-specific reasons"; every other VkResult command reports
# VK_ERROR_FEATURE_NOT_PRESENT from its fallback.
INIT_FAILED_COMMANDS = {"vkCreateInstance", "vkCreateDevice"}


class GenError(Exception):
    pass


def api_ok(elem):
    """True when an element applies to api="vulkan" (no api attribute = all)."""
    api = elem.get("api")
    return api is None or "vulkan" in api.split(",")


# --- Dependency expressions --------------------------------------------------
# vk.xml "depends" syntax: names joined by '+' (and) and ',' (or), grouped with
# parentheses. Older registries (like 1.3.239) use <require extension="X"> or
# <require feature="VK_VERSION_1_1"> instead; both become the same form.
# An expression is returned in disjunctive normal form: a list of clauses,
# each a frozenset of names that must all be present.


def _tokenize(text):
    return re.findall(r"[A-Za-z0-9_]+|[+,()]", text)


def parse_depends(text):
    tokens = _tokenize(text)
    pos = 0

    def parse_or():
        nonlocal pos
        result = parse_and()
        while pos < len(tokens) and tokens[pos] == ",":
            pos += 1
            result = result + parse_and()
        return result

    def parse_and():
        nonlocal pos
        result = parse_atom()
        while pos < len(tokens) and tokens[pos] == "+":
            pos += 1
            rhs = parse_atom()
            result = [a | b for a in result for b in rhs]
        return result

    def parse_atom():
        nonlocal pos
        if pos >= len(tokens):
            raise GenError("dependency expression ends early: %r" % text)
        tok = tokens[pos]
        pos += 1
        if tok == "(":
            inner = parse_or()
            if pos >= len(tokens) or tokens[pos] != ")":
                raise GenError("unbalanced parentheses in %r" % text)
            pos += 1
            return inner
        if tok in "+,)":
            raise GenError("unexpected %r in %r" % (tok, text))
        return [frozenset([tok])]

    dnf = parse_or()
    if pos != len(tokens):
        raise GenError("trailing tokens in dependency expression %r" % text)
    return dnf


def require_condition(req):
    """DNF condition under which a <require> block applies ([] = always)."""
    parts = []
    if req.get("depends"):
        parts.append(parse_depends(req.get("depends")))
    if req.get("extension"):
        parts.append(parse_depends(req.get("extension")))
    if req.get("feature"):
        parts.append(parse_depends(req.get("feature")))
    dnf = [frozenset()]
    for p in parts:
        dnf = [a | b for a in dnf for b in p]
    return dnf


# --- Registry -----------------------------------------------------------------


class Command:
    def __init__(self, name, ret, params):
        self.name = name
        self.ret = ret
        self.params = params  # list of (declaration text, parameter name, type)

    @property
    def short(self):
        return self.name[2:]

    def level(self):
        first = self.params[0][2] if self.params else None
        if self.name in GLOBAL_FIRST_PARAM_EXCEPTIONS:
            return LEVEL_INSTANCE
        if first == "VkInstance":
            return LEVEL_INSTANCE
        if first == "VkPhysicalDevice":
            return LEVEL_PHYSICAL_DEVICE
        if first in DISPATCHABLE_DEVICE_HANDLES:
            return LEVEL_DEVICE
        return LEVEL_GLOBAL


def param_text(param):
    """The C declaration of a <param>, e.g. 'const VkAllocationCallbacks* pAllocator'."""
    text = param.text or ""
    for child in param:
        if child.tag != "comment":
            text += child.text or ""
        text += child.tail or ""
    return " ".join(text.split())


def load_commands(root):
    commands = {}
    aliases = {}
    for cmd in root.iter("command"):
        if cmd.get("name") and cmd.get("alias"):
            if api_ok(cmd):
                aliases[cmd.get("name")] = cmd.get("alias")
            continue
        proto = cmd.find("proto")
        if proto is None or not api_ok(cmd):
            continue
        name = proto.find("name").text
        ret = " ".join(("".join(proto.itertext())).split())
        ret = ret[: ret.rfind(name)].strip()
        params = []
        for p in cmd.findall("param"):
            if not api_ok(p):
                continue
            ptype = p.find("type").text
            params.append((param_text(p), p.find("name").text, ptype))
        commands[name] = Command(name, ret, params)
    return commands, aliases


def resolve_alias(name, aliases):
    seen = set()
    while name in aliases:
        if name in seen:
            raise GenError("alias loop at %s" % name)
        seen.add(name)
        name = aliases[name]
    return name


def read_extension_list(path):
    names = []
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            if not re.fullmatch(r"VK_[A-Za-z0-9_]+", line):
                raise GenError("%s:%d: not an extension name: %r" % (path, lineno, line))
            if line in names:
                raise GenError("%s:%d: %s listed twice" % (path, lineno, line))
            names.append(line)
    return names


def extension_spec_version(ext):
    for req in ext.findall("require"):
        for enum in req.findall("enum"):
            if enum.get("name", "").endswith("_SPEC_VERSION") and enum.get("value"):
                return int(enum.get("value"))
    raise GenError("%s has no _SPEC_VERSION enum" % ext.get("name"))


class Model:
    """Everything the generated code needs, computed from vk.xml."""

    def __init__(self, root, ext_names):
        self.commands, self.aliases = load_commands(root)
        self.instance_exts = []  # (name, spec version) in list order
        self.device_exts = []
        xml_exts = {e.get("name"): e for e in root.iter("extension")}
        ext_type = {}
        for name in ext_names:
            ext = xml_exts.get(name)
            if ext is None:
                raise GenError("%s is not in vk.xml" % name)
            if "vulkan" not in (ext.get("supported") or "").split(","):
                raise GenError("%s is not supported for api vulkan in vk.xml" % name)
            kind = ext.get("type")
            if kind not in ("instance", "device"):
                raise GenError("%s has unknown type %r" % (name, kind))
            ext_type[name] = kind
            entry = (name, extension_spec_version(ext))
            (self.instance_exts if kind == "instance" else self.device_exts).append(entry)
        self.ext_type = ext_type
        self.check_extension_dependencies(xml_exts, ext_names)
        # Window-system extensions name a platform whose types (xcb_window_t,
        # Display *) vulkan.h declares only under a macro (<platforms>); their
        # commands are declared only where that macro is defined.
        protect_of_platform = {p.get("name"): p.get("protect") for p in root.iter("platform")}
        self.ext_protect = {}
        for name in ext_names:
            platform = xml_exts[name].get("platform")
            if platform:
                self.ext_protect[name] = protect_of_platform[platform]

        # name -> list of DNF clauses (frozensets of version/extension names)
        self.name_clauses = {}
        for feat in root.iter("feature"):
            if feat.get("name") not in CORE_VERSIONS or not api_ok(feat):
                continue
            for req in feat.findall("require"):
                if not api_ok(req):
                    continue
                cond = require_condition(req)
                for cmd in req.findall("command"):
                    self.add_provider(cmd.get("name"), feat.get("name"), cond)
        for name in ext_names:
            for req in xml_exts[name].findall("require"):
                if not api_ok(req):
                    continue
                cond = require_condition(req)
                for cmd in req.findall("command"):
                    self.add_provider(cmd.get("name"), name, cond)
        for feat in root.iter("feature"):
            for rem in feat.findall("remove"):
                if api_ok(feat) and api_ok(rem) and rem.findall("command"):
                    raise GenError("<remove> of commands in %s is not handled" % feat.get("name"))

        # Keep only clauses we could ever satisfy: core versions up to 1.3 and
        # the extensions we list. A name left with no clause is not exposed.
        satisfiable = set(CORE_VERSIONS) | set(ext_names)
        for name in list(self.name_clauses):
            clauses = {c for c in self.name_clauses[name] if c <= satisfiable}
            # A clause that is a superset of another adds nothing.
            minimal = [c for c in clauses if not any(o < c for o in clauses)]
            if minimal:
                self.name_clauses[name] = sorted(minimal, key=lambda c: sorted(c))
            else:
                del self.name_clauses[name]

        self.canonical = {}
        for name in self.name_clauses:
            root_name = resolve_alias(name, self.aliases)
            if root_name not in self.commands:
                raise GenError("%s aliases unknown command %s" % (name, root_name))
            self.canonical[name] = root_name
        self.implemented = sorted(set(self.canonical.values()))

    def check_extension_dependencies(self, xml_exts, ext_names):
        """An extension we list must not need one we do not list (or a core
        version above 1.3: the device reports 1.3, see vkppu_instance.h)."""
        have = set(ext_names) | {
            "VK_VERSION_1_0",
            "VK_VERSION_1_1",
            "VK_VERSION_1_2",
            "VK_VERSION_1_3",
        }
        for name in ext_names:
            ext = xml_exts[name]
            if ext.get("depends"):
                dnf = parse_depends(ext.get("depends"))
            else:
                reqs = [r for r in (ext.get("requires") or "").split(",") if r]
                dnf = [frozenset(reqs)]
            core = ext.get("requiresCore")
            if core and core not in ("1.0", "1.1", "1.2", "1.3"):
                raise GenError("%s requires core %s" % (name, core))
            if not any(c <= have for c in dnf):
                raise GenError(
                    "%s depends on %s; list what it needs in extensions.txt"
                    % (name, " or ".join("+".join(sorted(c)) for c in dnf))
                )

    def add_provider(self, cmd_name, provider, cond):
        clauses = self.name_clauses.setdefault(cmd_name, [])
        for c in cond:
            clauses.append(frozenset([provider]) | c)

    def term(self, name):
        """C initializer of one gating term."""
        if name in CORE_VERSIONS:
            return "{VKPPU_EP_TERM_VERSION, %d}" % CORE_VERSIONS.index(name)
        if self.ext_type[name] == "instance":
            return "{VKPPU_EP_TERM_INSTANCE_EXT, VKPPU_INSTANCE_EXT_%s}" % name[3:]
        return "{VKPPU_EP_TERM_DEVICE_EXT, VKPPU_DEVICE_EXT_%s}" % name[3:]

    def protect(self, cmd_name):
        """The platform macro every name implemented by cmd_name needs, or None."""
        macros = set()
        for name, canon in self.canonical.items():
            if canon != cmd_name:
                continue
            for clause in self.name_clauses[name]:
                clause_macros = {self.ext_protect[t] for t in clause if t in self.ext_protect}
                if not clause_macros:
                    return None
                macros |= clause_macros
        if len(macros) > 1:
            raise GenError("%s needs several platform macros %s" % (cmd_name, sorted(macros)))
        return macros.pop() if macros else None

    def is_core_name(self, name):
        return any(c <= set(CORE_VERSIONS) for c in self.name_clauses[name])

    def core_minor(self, name):
        """The lowest 1.x whose core provides the name, or -1."""
        minors = [
            max(CORE_VERSIONS.index(t) for t in c)
            for c in self.name_clauses[name]
            if c and c <= set(CORE_VERSIONS)
        ]
        return min(minors) if minors else -1


# --- Output -------------------------------------------------------------------

HEADER_TOP = """\
/* Generated by tools/gen_entrypoints.py from vk.xml and icd/extensions.txt.
 * Do not edit: change the generator or the extension list. */
#ifndef VKPPU_ENTRYPOINTS_H
#define VKPPU_ENTRYPOINTS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <vulkan/vulkan.h>

"""


def c_params(cmd):
    return ", ".join(p[0] for p in cmd.params) if cmd.params else "void"


def fallback_return(cmd):
    if cmd.ret == "void":
        return None
    if cmd.ret == "VkResult":
        if cmd.name in INIT_FAILED_COMMANDS:
            return "VK_ERROR_INITIALIZATION_FAILED"
        return "VK_ERROR_FEATURE_NOT_PRESENT"
    if cmd.ret.endswith("*") or cmd.ret.startswith("PFN_"):
        return "NULL"
    return "0"


def gen_header(m):
    out = [HEADER_TOP]
    out.append("/* Extensions this driver advertises (icd/extensions.txt). */\n")
    out.append("enum vkppu_instance_extension {\n")
    for name, _ in m.instance_exts:
        out.append("   VKPPU_INSTANCE_EXT_%s,\n" % name[3:])
    out.append("   VKPPU_INSTANCE_EXT_COUNT\n};\n\n")
    out.append("enum vkppu_device_extension {\n")
    for name, _ in m.device_exts:
        out.append("   VKPPU_DEVICE_EXT_%s,\n" % name[3:])
    out.append("   VKPPU_DEVICE_EXT_COUNT\n};\n\n")
    out.append(
        "extern const VkExtensionProperties vkppu_instance_extensions[];\n"
        "extern const VkExtensionProperties vkppu_device_extensions[];\n"
        "/* Index into the tables above, -1 if the extension is not supported. */\n"
        "int vkppu_instance_extension_index(const char *name);\n"
        "int vkppu_device_extension_index(const char *name);\n\n"
    )
    out.append(
        "/* Name lookups (see tools/gen_entrypoints.py for the gating rules).\n"
        " * They return the implementation when it is linked in, else a fallback\n"
        " * that reports \"not supported\" for core commands, else NULL. */\n"
        "PFN_vkVoidFunction vkppu_lookup_global(const char *name);\n"
        "PFN_vkVoidFunction vkppu_lookup_instance(const char *name, uint32_t instance_api_version,\n"
        "                                         const bool *instance_ext_enabled);\n"
        "PFN_vkVoidFunction vkppu_lookup_physical_device(const char *name);\n"
        "PFN_vkVoidFunction vkppu_lookup_device(const char *name, uint32_t effective_api_version,\n"
        "                                       const bool *instance_ext_enabled,\n"
        "                                       const bool *device_ext_enabled);\n"
        "/* Lists to f (if not NULL) every command of an advertised extension that\n"
        " * has no implementation linked in; returns how many. */\n"
        "int vkppu_entrypoints_missing(FILE *f);\n"
        "/* The same for the core commands of Vulkan 1.0 up to api_version's\n"
        " * 1.minor, but those named in `exempt` (NULL-terminated, may be NULL):\n"
        " * a device reporting that version must implement them all. */\n"
        "int vkppu_core_entrypoints_missing(FILE *f, uint32_t api_version,\n"
        "                                   const char *const *exempt);\n\n"
    )
    out.append(
        "/* Implementations. Weak: a command nobody implemented yet links as NULL\n"
        " * and its lookup falls back (see above). Aliases (…KHR/…EXT names of\n"
        " * promoted commands) have no prototype: implement the canonical name. */\n"
    )
    for name in m.implemented:
        cmd = m.commands[name]
        protect = m.protect(name)
        if protect:
            out.append("#ifdef %s\n" % protect)
        out.append(
            "__attribute__((weak)) VKAPI_ATTR %s VKAPI_CALL vkppu_%s(%s);\n"
            % (cmd.ret, cmd.short, c_params(cmd))
        )
        if protect:
            out.append("#endif\n")
    out.append("\n#endif /* VKPPU_ENTRYPOINTS_H */\n")
    return "".join(out)


SOURCE_TOP = """\
/* Generated by tools/gen_entrypoints.py from vk.xml and icd/extensions.txt.
 * Do not edit: change the generator or the extension list. */
#include "vkppu_entrypoints.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

enum vkppu_ep_level { VKPPU_EP_GLOBAL, VKPPU_EP_INSTANCE, VKPPU_EP_PHYSICAL_DEVICE, VKPPU_EP_DEVICE };
enum vkppu_ep_term_kind { VKPPU_EP_TERM_VERSION, VKPPU_EP_TERM_INSTANCE_EXT, VKPPU_EP_TERM_DEVICE_EXT };

/* One thing that must be present for a name to be visible: core version
 * 1.<index>, or an enabled instance/device extension. */
struct vkppu_ep_term {
   uint8_t kind;
   uint8_t index;
};
/* A name is visible when all terms of any one of its clauses hold. */
struct vkppu_ep_clause {
   uint8_t count;
   struct vkppu_ep_term terms[%(max_terms)d];
};
struct vkppu_ep_entry {
   const char *name;      /* the name an application asks for */
   const char *canonical; /* the command that implements it */
   uint8_t level;
   bool core;             /* provided by a core version: falls back, never NULL */
   int8_t core_minor;     /* the lowest 1.x whose core provides the name, or -1 */
   PFN_vkVoidFunction impl;
   PFN_vkVoidFunction fallback;
   uint8_t clause_count;
   const struct vkppu_ep_clause *clauses;
   const char *ext_provider; /* an extension providing the name, or NULL */
};

static void vkppu_note_unsupported(atomic_bool *reported, const char *name)
{
   if (!atomic_exchange(reported, true))
      fprintf(stderr, "vkppu: %%s is not supported by this driver yet\\n", name);
}

"""

SOURCE_LOOKUP = """
static int vkppu_ep_compare(const void *key, const void *elem)
{
   return strcmp((const char *)key, ((const struct vkppu_ep_entry *)elem)->name);
}

static const struct vkppu_ep_entry *vkppu_ep_find(const char *name)
{
   if (name == NULL)
      return NULL;
   return bsearch(name, vkppu_ep_entries, sizeof(vkppu_ep_entries) / sizeof(vkppu_ep_entries[0]),
                  sizeof(vkppu_ep_entries[0]), vkppu_ep_compare);
}

static PFN_vkVoidFunction vkppu_ep_function(const struct vkppu_ep_entry *e)
{
   if (e->impl != NULL)
      return e->impl;
   return e->core ? e->fallback : NULL;
}

/* Compares major.minor only: patch and variant do not gate commands. */
static bool vkppu_version_at_least(uint32_t version, uint32_t minor_of_1x)
{
   uint32_t major = VK_API_VERSION_MAJOR(version), minor = VK_API_VERSION_MINOR(version);
   return major > 1 || (major == 1 && minor >= minor_of_1x);
}

/* device_ext_enabled == NULL means "any device extension the driver supports
 * counts as present", which is what vkGetInstanceProcAddr answers with (spec:
 * "available device extension dispatchable command for instance"). */
static bool vkppu_ep_visible(const struct vkppu_ep_entry *e, uint32_t api_version,
                             const bool *instance_ext_enabled, const bool *device_ext_enabled)
{
   for (uint32_t c = 0; c < e->clause_count; c++) {
      const struct vkppu_ep_clause *clause = &e->clauses[c];
      bool ok = true;
      for (uint32_t t = 0; t < clause->count && ok; t++) {
         const struct vkppu_ep_term *term = &clause->terms[t];
         switch (term->kind) {
         case VKPPU_EP_TERM_VERSION:
            ok = vkppu_version_at_least(api_version, term->index);
            break;
         case VKPPU_EP_TERM_INSTANCE_EXT:
            ok = instance_ext_enabled != NULL && instance_ext_enabled[term->index];
            break;
         case VKPPU_EP_TERM_DEVICE_EXT:
            ok = device_ext_enabled == NULL || device_ext_enabled[term->index];
            break;
         default:
            ok = false;
         }
      }
      if (ok)
         return true;
   }
   return false;
}

PFN_vkVoidFunction vkppu_lookup_global(const char *name)
{
   const struct vkppu_ep_entry *e = vkppu_ep_find(name);
   if (e == NULL)
      return NULL;
   /* Spec, vkGetInstanceProcAddr with instance NULL: global commands, and
    * vkGetInstanceProcAddr itself (since 1.2.193). */
   if (e->level != VKPPU_EP_GLOBAL && strcmp(name, "vkGetInstanceProcAddr") != 0)
      return NULL;
   return vkppu_ep_function(e);
}

PFN_vkVoidFunction vkppu_lookup_instance(const char *name, uint32_t instance_api_version,
                                         const bool *instance_ext_enabled)
{
   const struct vkppu_ep_entry *e = vkppu_ep_find(name);
   /* Spec: global commands other than vkGetInstanceProcAddr are undefined
    * (NULL) for a non-NULL instance. */
   if (e == NULL || e->level == VKPPU_EP_GLOBAL)
      return NULL;
   if (!vkppu_ep_visible(e, instance_api_version, instance_ext_enabled, NULL))
      return NULL;
   return vkppu_ep_function(e);
}

PFN_vkVoidFunction vkppu_lookup_physical_device(const char *name)
{
   const struct vkppu_ep_entry *e = vkppu_ep_find(name);
   if (e == NULL || e->level != VKPPU_EP_PHYSICAL_DEVICE)
      return NULL;
   return vkppu_ep_function(e);
}

PFN_vkVoidFunction vkppu_lookup_device(const char *name, uint32_t effective_api_version,
                                       const bool *instance_ext_enabled,
                                       const bool *device_ext_enabled)
{
   const struct vkppu_ep_entry *e = vkppu_ep_find(name);
   static const bool no_device_ext[VKPPU_DEVICE_EXT_COUNT + 1];
   if (e == NULL || e->level != VKPPU_EP_DEVICE)
      return NULL;
   if (device_ext_enabled == NULL)
      device_ext_enabled = no_device_ext;
   if (!vkppu_ep_visible(e, effective_api_version, instance_ext_enabled, device_ext_enabled))
      return NULL;
   return vkppu_ep_function(e);
}

int vkppu_core_entrypoints_missing(FILE *f, uint32_t api_version, const char *const *exempt)
{
   int missing = 0;
   for (size_t i = 0; i < sizeof(vkppu_ep_entries) / sizeof(vkppu_ep_entries[0]); i++) {
      const struct vkppu_ep_entry *e = &vkppu_ep_entries[i];
      if (e->impl != NULL || e->core_minor < 0 ||
          !vkppu_version_at_least(api_version, (uint32_t)e->core_minor))
         continue;
      bool is_exempt = false;
      for (const char *const *x = exempt; x != NULL && *x != NULL && !is_exempt; x++)
         is_exempt = strcmp(*x, e->name) == 0;
      if (is_exempt)
         continue;
      if (f != NULL)
         fprintf(f, "vkppu: %s (Vulkan 1.%d) is not implemented (vkppu_%s)\\n", e->name,
                 e->core_minor, e->canonical + 2);
      missing++;
   }
   return missing;
}

int vkppu_entrypoints_missing(FILE *f)
{
   int missing = 0;
   for (size_t i = 0; i < sizeof(vkppu_ep_entries) / sizeof(vkppu_ep_entries[0]); i++) {
      const struct vkppu_ep_entry *e = &vkppu_ep_entries[i];
      if (e->impl != NULL || e->ext_provider == NULL)
         continue;
      if (f != NULL)
         fprintf(f, "vkppu: %s (%s) is advertised but not implemented (vkppu_%s)\\n", e->name,
                 e->ext_provider, e->canonical + 2);
      missing++;
   }
   return missing;
}
"""


def gen_source(m):
    max_terms = max(len(c) for cl in m.name_clauses.values() for c in cl)
    # The tables reference every command, window-system ones included.
    platform_defines = "".join(
        "#define %s 1\n" % macro for macro in sorted(set(m.ext_protect.values()))
    )
    top = SOURCE_TOP % {"max_terms": max_terms}
    include = '#include "vkppu_entrypoints.h"\n'
    out = [top.replace(include, platform_defines + include, 1)]

    out.append("const VkExtensionProperties vkppu_instance_extensions[] = {\n")
    for name, ver in m.instance_exts:
        out.append("   {\"%s\", %d},\n" % (name, ver))
    if not m.instance_exts:
        out.append("   {\"\", 0},\n")
    out.append("};\n\nconst VkExtensionProperties vkppu_device_extensions[] = {\n")
    for name, ver in m.device_exts:
        out.append("   {\"%s\", %d},\n" % (name, ver))
    if not m.device_exts:
        out.append("   {\"\", 0},\n")
    out.append("};\n\n")
    for kind, exts in (("instance", m.instance_exts), ("device", m.device_exts)):
        out.append(
            "int vkppu_%s_extension_index(const char *name)\n{\n"
            "   if (name == NULL)\n      return -1;\n"
            "   for (int i = 0; i < (int)VKPPU_%s_EXT_COUNT; i++) {\n"
            "      if (strcmp(name, vkppu_%s_extensions[i].extensionName) == 0)\n"
            "         return i;\n"
            "   }\n   return -1;\n}\n\n" % (kind, kind.upper(), kind)
        )

    out.append("/* Fallbacks: see tools/gen_entrypoints.py. */\n")
    for name in m.implemented:
        cmd = m.commands[name]
        out.append(
            "static VKAPI_ATTR %s VKAPI_CALL vkppu_unsupported_%s(%s)\n{\n"
            % (cmd.ret, cmd.short, c_params(cmd))
        )
        for _, pname, _ in cmd.params:
            out.append("   (void)%s;\n" % pname)
        out.append("   static atomic_bool reported;\n")
        out.append("   vkppu_note_unsupported(&reported, \"%s\");\n" % name)
        ret = fallback_return(cmd)
        if ret is not None:
            out.append("   return %s;\n" % ret)
        out.append("}\n\n")

    names = sorted(m.name_clauses, key=lambda s: s.encode())
    for i, name in enumerate(names):
        clauses = m.name_clauses[name]
        out.append("static const struct vkppu_ep_clause vkppu_ep_clauses_%d[] = {\n" % i)
        for c in clauses:
            terms = sorted(c, key=lambda t: (t not in CORE_VERSIONS, t))
            out.append("   {%d, {%s}},\n" % (len(terms), ", ".join(m.term(t) for t in terms)))
        out.append("};\n")
    out.append("\n")

    # ext_provider: the first listed extension that provides the name, for
    # vkppu_entrypoints_missing(); NULL for names only core versions provide.
    out.append("static const struct vkppu_ep_entry vkppu_ep_entries[] = {\n")
    for i, name in enumerate(names):
        canon = m.canonical[name]
        cmd = m.commands[canon]
        ext_provider = None
        for c in m.name_clauses[name]:
            exts = sorted(t for t in c if t not in CORE_VERSIONS)
            if exts:
                ext_provider = exts[0]
                break
        out.append(
            "   {\"%s\", \"%s\", %s, %s, %d, (PFN_vkVoidFunction)vkppu_%s,\n"
            "    (PFN_vkVoidFunction)vkppu_unsupported_%s, %d, vkppu_ep_clauses_%d, %s},\n"
            % (
                name,
                canon,
                LEVEL_NAMES[cmd.level()],
                "true" if m.is_core_name(name) else "false",
                m.core_minor(name),
                cmd.short,
                cmd.short,
                len(m.name_clauses[name]),
                i,
                "\"%s\"" % ext_provider if ext_provider else "NULL",
            )
        )
    out.append("};\n")
    out.append(SOURCE_LOOKUP)
    return "".join(out)


def write_if_changed(path, text):
    """Leaves an unchanged file alone so dependents do not rebuild."""
    try:
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                return
    except FileNotFoundError:
        pass
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--xml", required=True)
    ap.add_argument("--extensions", required=True)
    ap.add_argument("--out-dir", required=True)
    args = ap.parse_args()
    try:
        root = ET.parse(args.xml).getroot()
        model = Model(root, read_extension_list(args.extensions))
        header = gen_header(model)
        source = gen_source(model)
    except (GenError, ET.ParseError, OSError) as e:
        print("gen_entrypoints.py: error: %s" % e, file=sys.stderr)
        return 1
    os.makedirs(args.out_dir, exist_ok=True)
    write_if_changed(os.path.join(args.out_dir, "vkppu_entrypoints.h"), header)
    write_if_changed(os.path.join(args.out_dir, "vkppu_entrypoints.c"), source)
    return 0


if __name__ == "__main__":
    sys.exit(main())
