/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tageval.h - scoring of sense taggers and annotators over hierarchical tag sets
 *
 * Conventions of this header
 * --------------------------
 * Objects are opaque (struct tageval_<object>), created by tageval_<object>_new()
 * and released by tageval_<object>_free(); _free(NULL) does nothing.  Whoever
 * creates an object owns it.  Value types (options, results, errors, events) are
 * plain structs whose fields are documented here.
 *
 * Functions that can fail return an int: TAGEVAL_OK (0) or a positive
 * TAGEVAL_E* code.  Functions that take a `struct tageval_error *err` fill it
 * (when err is not NULL) with the code, the file name, the 1-based line number
 * (0 when the error has no line) and a message; tools print it as
 * "tool: file:line: message".  The library never prints and never exits.
 *
 * A function that returns an object through an out-parameter sets it to NULL
 * when it fails, after freeing anything it had built.
 *
 * Borrowed pointers: strings returned as `const char *` belong to the object
 * they come from and stay valid until that object is freed.  An object that is
 * built on another one (a key on an inventory, a scorer on both) keeps a
 * pointer to it: the other object must outlive it.
 *
 * There is no global state; objects are not thread-safe, but different
 * objects may be used from different threads.  Readers and scorers add tags
 * to the inventory they are given, so an inventory and the keys, filters and
 * scorers built on it count as one object here.  Numbers in files are parsed in
 * the "C" locale's format (a '.' decimal point) by strtod(): a program that
 * calls setlocale(LC_NUMERIC, ...) with another decimal point must restore
 * "C" around the readers.
 */
#ifndef TAGEVAL_H
#define TAGEVAL_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) && __GNUC__ >= 4
#define TAGEVAL_EXPORT __attribute__((visibility("default")))
#else
#define TAGEVAL_EXPORT
#endif

/* ------------------------------------------------------------------ errors */

/** Status codes; the values are stable. */
enum tageval_status {
	TAGEVAL_OK = 0,
	TAGEVAL_ENOMEM = 1,   /**< out of memory */
	TAGEVAL_EIO = 2,      /**< a file could not be opened, read or written */
	TAGEVAL_EFORMAT = 3,  /**< malformed or inconsistent data in a file */
	TAGEVAL_EINVAL = 4,   /**< an invalid argument or call sequence */
	TAGEVAL_ENOTFOUND = 5 /**< a looked-up name does not exist */
};

#define TAGEVAL_ERROR_FILE_MAX 1024
#define TAGEVAL_ERROR_MESSAGE_MAX 512

/** Where and why something failed.  Caller-owned; no allocation inside. */
struct tageval_error {
	int code;                                /**< a tageval_status */
	size_t line;                             /**< 1-based; 0 = no line */
	char file[TAGEVAL_ERROR_FILE_MAX];       /**< file name, "" if none */
	char message[TAGEVAL_ERROR_MESSAGE_MAX]; /**< no file/line prefix */
};

/** A static English description of a status code (never NULL). */
TAGEVAL_EXPORT const char *tageval_strerror(int code);

/** The library's version, "MAJOR.MINOR.PATCH". */
TAGEVAL_EXPORT const char *tageval_version(void);

/* --------------------------------------------------------------- inventory */

/**
 * A sense inventory: every tag seen (interned to a dense id 0, 1, 2, ...)
 * and the is-a hierarchy read from a sense map.  Tags that a key or answer
 * file uses but the map does not list are added as top-level leaves.
 */
struct tageval_inventory;

/** Returns a new empty inventory, or NULL when out of memory. */
TAGEVAL_EXPORT struct tageval_inventory *tageval_inventory_new(void);
TAGEVAL_EXPORT void tageval_inventory_free(struct tageval_inventory *inv);

/**
 * Reads a sense map from the file @path ("-" = standard input, named
 * "<stdin>").  Two forms are accepted and told apart automatically: the
 * scorer2 form "s0 b1 s1 b2 s2 ..." (s1 is the parent of s0 and has b1
 * children, ...; chosen when any line has three or more fields) and the
 * parent form "tag" or "tag parent" (a tag may have several parents, one per
 * line; a parent's branching factor is its number of children).  Blank lines
 * and text from "!!" to the end of a line are ignored.
 *
 * Errors (TAGEVAL_EFORMAT, with file and line): a factor that is not a
 * positive integer, a scorer2 line with an even number of fields, one parent
 * given two factors, more children than the factor, two chains for one tag,
 * a cycle, a NUL byte or a stray carriage return.  A map can be read only
 * once, and only before any key or answers have added tags (TAGEVAL_EINVAL).
 */
TAGEVAL_EXPORT int tageval_inventory_read_map(struct tageval_inventory *inv,
					      const char *path,
					      struct tageval_error *err);

/** As tageval_inventory_read_map(), from memory; @name is used in errors. */
TAGEVAL_EXPORT int tageval_inventory_read_map_buffer(struct tageval_inventory *inv,
						     const char *data, size_t size,
						     const char *name,
						     struct tageval_error *err);

/** Number of tags the inventory holds now. */
TAGEVAL_EXPORT size_t tageval_inventory_size(const struct tageval_inventory *inv);

/** Looks a tag up: TAGEVAL_OK and *id, or TAGEVAL_ENOTFOUND. */
TAGEVAL_EXPORT int tageval_inventory_find(const struct tageval_inventory *inv,
					  const char *tag, size_t *id);

/** Adds a tag if it is new (as a top-level leaf); *id receives its id. */
TAGEVAL_EXPORT int tageval_inventory_intern(struct tageval_inventory *inv,
					    const char *tag, size_t *id);

/** The name of tag @id (borrowed), or NULL when @id is out of range. */
TAGEVAL_EXPORT const char *tageval_inventory_name(const struct tageval_inventory *inv,
						  size_t id);

/**
 * Pr(@descendant | @ancestor) under uniform downward probabilities: 1 when
 * the two are the same tag, the sum over the downward paths of the products
 * of 1/b (b = each node's branching factor) when @ancestor is above
 * @descendant, 0 otherwise.  Out-of-range ids give 0.
 */
TAGEVAL_EXPORT double tageval_inventory_subsumes(const struct tageval_inventory *inv,
						 size_t ancestor, size_t descendant);

/**
 * The coarse tag of @id: the top-level ancestor.  TAGEVAL_EFORMAT when a tag
 * with several parents reaches more than one top-level tag.
 */
TAGEVAL_EXPORT int tageval_inventory_coarse(const struct tageval_inventory *inv,
					    size_t id, size_t *coarse,
					    struct tageval_error *err);

/* ------------------------------------------------------------ distribution */

/**
 * A tag's distribution over the leaves below it: a sparse vector of
 * (leaf id, probability) pairs, sorted by leaf id.  A leaf is a tag without
 * children, or a parent whose declared factor b exceeds its k listed children:
 * that parent keeps the mass 1 - k/b as itself (the Senseval-3 sense-map
 * convention).  In a DAG a leaf collects the mass of every downward path.
 */
struct tageval_dist;

TAGEVAL_EXPORT struct tageval_dist *tageval_dist_new(void);
TAGEVAL_EXPORT void tageval_dist_free(struct tageval_dist *dist);

/** Fills @dist with the distribution of tag @id (TAGEVAL_EINVAL if out of range). */
TAGEVAL_EXPORT int tageval_inventory_distribute(const struct tageval_inventory *inv,
						size_t id, struct tageval_dist *dist);

TAGEVAL_EXPORT size_t tageval_dist_size(const struct tageval_dist *dist);
TAGEVAL_EXPORT size_t tageval_dist_leaf(const struct tageval_dist *dist, size_t i);
TAGEVAL_EXPORT double tageval_dist_prob(const struct tageval_dist *dist, size_t i);
/** The probability of leaf @leaf (0 when the leaf is not in the support). */
TAGEVAL_EXPORT double tageval_dist_get(const struct tageval_dist *dist, size_t leaf);

/* --------------------------------------------------------------------- key */

/**
 * A gold key: lines "lexelt instance tag [tag ...]" in any order, several
 * tags read as alternatives.  Fields are separated by runs of blanks (space,
 * tab); blank lines and text from "!!" on are ignored; LF or CRLF.  Errors:
 * fewer than three fields, a tag containing '/', a duplicate instance, a NUL
 * byte, a stray carriage return, a key without any instance.
 */
struct tageval_key;

/** Reads a key from @path ("-" = standard input); tags are interned into @inv. */
TAGEVAL_EXPORT int tageval_key_read(struct tageval_inventory *inv, const char *path,
				    struct tageval_key **key, struct tageval_error *err);
TAGEVAL_EXPORT int tageval_key_read_buffer(struct tageval_inventory *inv,
					   const char *data, size_t size,
					   const char *name, struct tageval_key **key,
					   struct tageval_error *err);
TAGEVAL_EXPORT void tageval_key_free(struct tageval_key *key);

/** Number of instances in the key. */
TAGEVAL_EXPORT size_t tageval_key_size(const struct tageval_key *key);

/* ------------------------------------------------------------------ filter */

/**
 * A subset of the evaluation data (spec 001, "relativized to a subset"): an
 * instance list (lines "lexelt instance [...]"; only the first two fields
 * count, so a key file can serve) and/or a sense-tag list (any number of tags
 * per line).  An empty part does not filter.
 */
struct tageval_filter;

TAGEVAL_EXPORT struct tageval_filter *tageval_filter_new(void);
TAGEVAL_EXPORT void tageval_filter_free(struct tageval_filter *filter);
TAGEVAL_EXPORT int tageval_filter_read_instances(struct tageval_filter *filter,
						 const char *path,
						 struct tageval_error *err);
TAGEVAL_EXPORT int tageval_filter_read_instances_buffer(struct tageval_filter *filter,
							const char *data, size_t size,
							const char *name,
							struct tageval_error *err);
/** Tags are interned into @inv, which must be the scorer's inventory. */
TAGEVAL_EXPORT int tageval_filter_read_tags(struct tageval_filter *filter,
					    struct tageval_inventory *inv,
					    const char *path, struct tageval_error *err);
TAGEVAL_EXPORT int tageval_filter_read_tags_buffer(struct tageval_filter *filter,
						   struct tageval_inventory *inv,
						   const char *data, size_t size,
						   const char *name,
						   struct tageval_error *err);

/* ----------------------------------------------------------------- scoring */

enum tageval_granularity {
	TAGEVAL_FINE = 0,   /**< exact tag match */
	TAGEVAL_COARSE = 1, /**< both sides mapped to their top-level tag */
	TAGEVAL_MIXED = 2   /**< partial credit along the hierarchy */
};

enum tageval_answer_status {
	TAGEVAL_ANSWER_SCORED = 0,
	TAGEVAL_ANSWER_NOT_IN_KEY = 1, /**< scorer2: "Does not exist." */
	TAGEVAL_ANSWER_INVALID = 2,    /**< no tags: "Invalid answer." */
	TAGEVAL_ANSWER_EXCLUDED = 3,   /**< -m or a second answer: "Excluded or already scored." */
	TAGEVAL_ANSWER_FILTERED = 4    /**< outside the filter's subset: silently ignored */
};

/** What the scorer did with one answer line; all pointers are borrowed for the call. */
struct tageval_answer_event {
	enum tageval_answer_status status;
	size_t line;                     /**< 1-based line number in the answer file */
	const char *lexelt;
	const char *instance;
	double score;                    /**< the credit earned (SCORED only) */
	double attempted;                /**< the mass added to "attempted" */
	size_t n_key;                    /**< key tags after the policy's mapping */
	const char *const *key_tags;
	size_t n_guess;                  /**< answer tags after merging */
	const char *const *guess_tags;
	const double *guess_weights;     /**< after normalisation */
};

typedef void (*tageval_answer_fn)(const struct tageval_answer_event *event, void *userdata);

struct tageval_score_options {
	enum tageval_granularity granularity;
	int minimal;     /**< non-zero: leave out instances with several key tags */
	int conjunctive; /**< non-zero: spec 001's conjunctive policy */
	const struct tageval_filter *filter; /**< NULL = all instances */
	tageval_answer_fn on_answer;         /**< NULL = no events */
	void *userdata;
};

/** Sets the defaults: fine, not minimal, disjunctive, no filter, no callback. */
TAGEVAL_EXPORT void tageval_score_options_init(struct tageval_score_options *opts);

/**
 * Totals.  Disjunctive policy: @correct is the sum of the instance scores,
 * @attempted the sum of the answers' weight totals, @total the number of
 * instances.  Conjunctive policy: @correct is the sum over key tags of the
 * credit, @attempted the expected number of tags returned, @total the number
 * of key tags.  precision = correct / attempted, recall = correct / total.
 */
struct tageval_score {
	double correct;
	double attempted;
	double total;
	size_t instances;   /**< instances in the evaluated subset */
	size_t scored;      /**< answer lines scored */
	size_t not_in_key;
	size_t invalid;
	size_t excluded;
	size_t filtered;
};

struct tageval_scorer;

/**
 * Prepares scoring of answers against @key (whose tags live in @inv) under
 * @opts (copied; NULL = defaults).  Coarse scoring fails with
 * TAGEVAL_EFORMAT if a key tag has several top-level ancestors.
 */
TAGEVAL_EXPORT int tageval_scorer_new(struct tageval_inventory *inv,
				      const struct tageval_key *key,
				      const struct tageval_score_options *opts,
				      struct tageval_scorer **scorer,
				      struct tageval_error *err);
TAGEVAL_EXPORT void tageval_scorer_free(struct tageval_scorer *scorer);

/**
 * Scores the answer file @path ("-" = standard input) in one streaming pass,
 * lines in any order: "lexelt instance tag[/weight] ... [!! comment]".  The
 * first answer for an instance counts.  Errors (TAGEVAL_EFORMAT with line):
 * a missing instance id, an invalid weight (a finite decimal number >= 0 is
 * required), a NUL byte, a stray carriage return; in the conjunctive policy
 * also a weight above 1.  After an error the totals are incomplete.
 */
TAGEVAL_EXPORT int tageval_scorer_read(struct tageval_scorer *scorer, const char *path,
				       struct tageval_error *err);
TAGEVAL_EXPORT int tageval_scorer_read_buffer(struct tageval_scorer *scorer,
					      const char *data, size_t size,
					      const char *name,
					      struct tageval_error *err);

/** Copies the totals so far into @result. */
TAGEVAL_EXPORT void tageval_scorer_result(const struct tageval_scorer *scorer,
					  struct tageval_score *result);

#ifdef __cplusplus
}
#endif

#endif /* TAGEVAL_H */
