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
 * Out of memory: a failed allocation comes back as TAGEVAL_ENOMEM, never as
 * a crash or an exit.  The library uses GSL (random numbers, sorting,
 * quantiles, log-gamma) but never calls GSL's error handler, whatever
 * handler the application has set with gsl_set_error_handler(): it
 * allocates GSL's generators itself and gives GSL functions only arguments
 * on which they cannot fail, so GSL's default handler (which calls abort())
 * never runs on the library's account.
 *
 * Line numbers are uint64_t: a file of more than 2^32 lines reports the
 * right line.
 *
 * NULL arguments: a pointer may be NULL only where this header says so --
 * err everywhere, the options of tageval_scorer_new(),
 * tageval_agreement_compute() and tageval_wsi_evaluate(), the train key of
 * tageval_report_new(), pos of tageval_supervised_new(), name of
 * tageval_key_new(), source of tageval_report_add_system_buffer(), weights
 * of tageval_scorer_add(), mapped of tageval_supervised_evaluate(),
 * replicates of tageval_agreement_interval(), the outputs of
 * tageval_agreement_macro() and tageval_report_medians(), the argument of a
 * _free(), and data / tags when their size is 0.  Any other NULL changes
 * nothing and is answered: TAGEVAL_EINVAL from a function returning a status
 * (with the message "function: NULL argument" in err); 0, NULL, or the
 * value given for an out-of-range index from one returning a count, a
 * pointer or a number (NaN from tageval_agreement_macro() and from
 * tageval_entropy() with n > 0); nothing from a void function, except that
 * tageval_scorer_result() with a NULL scorer stores zero totals.
 *
 * Borrowed pointers: strings returned as `const char *` belong to the object
 * they come from and stay valid until that object is freed.  An object that is
 * built on another one (a key on an inventory, a scorer on both) keeps a
 * pointer to it: the other object must outlive it.
 *
 * There is no global state; objects are not thread-safe, but different
 * objects may be used from different threads.  Long files are read with a
 * second thread, and some evaluations share their work out to the cores
 * (libtageval(3), "Threads and locale"): those threads end before the call
 * returns, and the figures are the same bits whatever the cores.  Readers and scorers add tags
 * to the inventory they are given, so an inventory and the keys, filters and
 * scorers built on it count as one object here.  Numbers in files are parsed in
 * the "C" locale's format (a '.' decimal point) by strtod(): a program that
 * calls setlocale(LC_NUMERIC, ...) with another decimal point must restore
 * "C" around the readers.
 */
#ifndef TAGEVAL_H
#define TAGEVAL_H

#include <stddef.h>
#include <stdint.h>

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
	uint64_t line;                           /**< 1-based (64 bits: any file); 0 = no line */
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

/** The leaves of the sense map: its tags with no tag below them (0 without
 * a map). */
TAGEVAL_EXPORT size_t tageval_inventory_leaves(const struct tageval_inventory *inv);

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

/**
 * Replaces the uniform downward probabilities by estimates from a tagged
 * corpus @path in the key format ("lexelt instance tag ..."; weights after a
 * '/' are ignored, each line weighs 1, shared evenly by its distinct tags;
 * the share of a tag the map does not list is dropped).  With c(t) the weight tag t got and
 * n(t) = c(t) + the n of t's children, a parent p with k listed children
 * and factor b gives P(child | p) = (n(child) + alpha) / D and, when b > k,
 * P(p itself | p) = (c(p) + alpha (b - k)) / D, D = sum n(children) +
 * [b > k] c(p) + alpha b.  alpha = 1 is Laplace smoothing; with no data the
 * estimates are the uniform 1/b.  Call it after the map, before the
 * distributions are used.  Calling it again starts from uniform again.
 */
TAGEVAL_EXPORT int tageval_inventory_estimate_downward(struct tageval_inventory *inv,
							const char *path, double alpha,
							struct tageval_error *err);
TAGEVAL_EXPORT int tageval_inventory_estimate_downward_buffer(struct tageval_inventory *inv,
							       const char *data, size_t size,
							       const char *name, double alpha,
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
/** A new empty key, filled with tageval_key_add(); @name is used in messages. */
TAGEVAL_EXPORT int tageval_key_new(struct tageval_inventory *inv, const char *name,
				   struct tageval_key **key);
/**
 * Adds an instance with its @ntags >= 1 tags (interned into the key's
 * inventory).  Errors as for a key line (no tag, '/' in a tag, duplicate);
 * TAGEVAL_EINVAL for an empty field or one with a blank.
 */
TAGEVAL_EXPORT int tageval_key_add(struct tageval_key *key, const char *lexelt,
				   const char *instance, const char *const *tags, size_t ntags,
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
	uint64_t line;                   /**< 1-based line number in the answer file */
	const char *lexelt;
	const char *instance;
	double score;                    /**< the credit earned (SCORED only) */
	double attempted;                /**< the mass added to "attempted" */
	size_t n_key;                    /**< key tags after the policy's mapping */
	const char *const *key_tags;
	size_t n_guess;                  /**< answer tags after merging */
	const char *const *guess_tags;
	const double *guess_weights;     /**< after normalisation */
	size_t index;                    /**< the instance's position in the key (0 for
					  *   its first line or tageval_key_add() call);
					  *   (size_t)-1 when NOT_IN_KEY */
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
 * TAGEVAL_EFORMAT if a key tag has several top-level ancestors.  @key must
 * not change while the scorer exists: no tageval_key_add() on it until the
 * scorer is freed (answers are looked up in it by a second thread while a
 * file is read, and its tags are read in place).
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

/**
 * Scores one answer given through the API, as an answer line would be:
 * @tags with @weights (NULL: unweighted; else finite and >= 0 each).  The
 * scorer's callback sees it with line numbers 1, 2, ... of these calls.
 */
TAGEVAL_EXPORT int tageval_scorer_add(struct tageval_scorer *scorer, const char *lexelt,
				      const char *instance, const char *const *tags,
				      const double *weights, size_t ntags,
				      struct tageval_error *err);

/** Copies the totals so far into @result. */
TAGEVAL_EXPORT void tageval_scorer_result(const struct tageval_scorer *scorer,
					  struct tageval_score *result);

/* --------------------------------------------------------------- agreement */

/**
 * Annotations of one or more annotators, each read from a file in the key
 * format "lexelt instance tag[/weight] ...", lines in any order.  An item is
 * the pair (lexelt, instance).  Each annotation is turned into a
 * distribution over the leaves of the inventory: the mixture of its tags'
 * distributions, uniform over the distinct tags, or weighted when every tag
 * of the line has a weight (weights are then normalised; a line where some
 * tag lacks a weight ignores its weights).  Errors: a line without a tag, a
 * duplicate item in one file, an invalid weight (finite, >= 0, positive
 * total), a tag repeated on a weighted line.
 */
struct tageval_annotations;

/** New, empty; tags are resolved against @inv, which must outlive it. */
TAGEVAL_EXPORT int tageval_annotations_new(struct tageval_inventory *inv,
					   struct tageval_annotations **out);
TAGEVAL_EXPORT void tageval_annotations_free(struct tageval_annotations *ann);

/**
 * Before the first annotations are read: replace every tag of the lines by
 * its ancestor at depth @level (1: the top-level tags, the coarse grain of
 * scorer2) in the tree-shaped sense map of @map (a tag not as deep stays, a
 * tag outside the map stays), the shares of a line's tags that meet added
 * up; 0: no replacement.  The annotations' own inventory must have no map:
 * the tags at that level are its categories, flat.  @map must outlive the
 * reading.  TAGEVAL_EINVAL after annotations were read or when the
 * annotations' inventory has a map, TAGEVAL_EFORMAT when @map is not a tree.
 */
TAGEVAL_EXPORT int tageval_annotations_set_level(struct tageval_annotations *ann,
						 const struct tageval_inventory *map,
						 size_t level, struct tageval_error *err);

/**
 * Reads the file of one more annotator ("-" = standard input).  A file that
 * fails still adds its annotator, with the lines before the one that failed
 * (and only the items those lines name).  A regular file given again, unchanged (device, inode, size, modification and change
 * times) and last changed more than two seconds before it was read, is not
 * read again: the new annotator gets the records of the first.
 */
TAGEVAL_EXPORT int tageval_annotations_read(struct tageval_annotations *ann, const char *path,
					    struct tageval_error *err);
TAGEVAL_EXPORT int tageval_annotations_read_buffer(struct tageval_annotations *ann,
						   const char *data, size_t size,
						   const char *name,
						   struct tageval_error *err);

/**
 * Reads the annotations of any number of annotators from one file in the
 * long form, one annotation per line: "item annotator tag[/weight] ..."
 * (blank-separated), or "item,annotator,tag[/weight]" (a line of one field
 * holding commas: one tag, no quoting).  An item "lexelt:instance" (split at
 * its first colon) is the item (lexelt, instance) of the files of one
 * annotator; an item without a colon is an instance of the lexelt "".  The
 * new annotators come after those already read, in the byte order of their
 * names (tageval_annotations_annotator_name()), whatever the order of the
 * lines.  Errors (TAGEVAL_EFORMAT): a line without an annotator or a tag, an
 * empty field of a CSV line, an annotator annotating an item twice, those of
 * the files of one annotator, and a file too sparse for the table of
 * annotators x items the annotations are kept in: refused when the file's
 * annotators times max(its items, 1024) exceed 16 A + 2^22, A its annotation
 * lines (decided on the whole file, so the order of its lines does not
 * matter).
 */
TAGEVAL_EXPORT int tageval_annotations_read_long(struct tageval_annotations *ann,
						 const char *path, struct tageval_error *err);
TAGEVAL_EXPORT int tageval_annotations_read_long_buffer(struct tageval_annotations *ann,
							const char *data, size_t size,
							const char *name,
							struct tageval_error *err);
/** The name of annotator @c read by tageval_annotations_read_long(); NULL for
 * an annotator read from a file of its own, or out of range. */
TAGEVAL_EXPORT const char *tageval_annotations_annotator_name(const struct tageval_annotations *ann,
							      size_t c);

TAGEVAL_EXPORT size_t tageval_annotations_annotators(const struct tageval_annotations *ann);
/** Distinct items over all annotators. */
TAGEVAL_EXPORT size_t tageval_annotations_items(const struct tageval_annotations *ann);

/** Why a coefficient has no value. */
enum tageval_undefined {
	TAGEVAL_DEFINED = 0,
	TAGEVAL_UNDEFINED_CHANCE = 1,     /**< chance agreement is 1: 0/0 */
	TAGEVAL_UNDEFINED_INCOMPLETE = 2, /**< needs every annotator on every item */
	TAGEVAL_UNDEFINED_NO_ITEMS = 3,   /**< no item with two annotations */
	TAGEVAL_UNDEFINED_NO_SPREAD = 4,  /**< expected disagreement is 0 */
	TAGEVAL_UNDEFINED_NOT_NUMBERS = 5, /**< a label is not a number */
	TAGEVAL_UNDEFINED_INNER_TAG = 6,  /**< an annotation names a tag with tags below it */
	TAGEVAL_UNDEFINED_NEGATIVE = 7,   /**< the ratio level needs values >= 0 */
	TAGEVAL_UNDEFINED_ONE_CATEGORY = 8, /**< fewer than two categories */
	TAGEVAL_UNDEFINED_TWO_ANNOTATORS = 9, /**< needs exactly two annotators */
	TAGEVAL_UNDEFINED_NOT_ASKED = 10, /**< not computed: not asked for */
	TAGEVAL_UNDEFINED_ONE_ITEM = 11   /**< a standard error needs two or more items */
};

/** A short English reason for an enum tageval_undefined value. */
TAGEVAL_EXPORT const char *tageval_undefined_reason(int why);

/**
 * The figures over one set of items (all items, or one lexelt).  A
 * coefficient whose *_undefined field is not TAGEVAL_DEFINED has no value
 * (its field holds NaN).  See reference-agreement.md / hkappa(1):
 * pr_a = mean item agreement (inner products of the annotations' leaf
 * distributions, mean over pairs of annotators), pr_e = sum of squared pooled
 * leaf marginals, kappa = (pr_a - pr_e) / (1 - pr_e); the separate-marginal
 * variant is Cohen's kappa for two annotators and Davies-Fleiss for more
 * (complete data only); alpha is Krippendorff's alpha with the distance
 * 1 - <P, Q>.
 */
struct tageval_agreement_figures {
	size_t items;           /**< items annotated by two or more annotators */
	size_t annotations;     /**< annotations on those items */
	size_t complete;        /**< items annotated by every annotator */
	double pr_a;
	double pr_e;
	double kappa;
	int kappa_undefined;
	double pr_e_separate;   /**< Cohen / Davies-Fleiss chance agreement */
	double kappa_separate;
	int separate_undefined;
	double d_o, d_e;        /**< observed and expected disagreement */
	double alpha;
	int alpha_undefined;
};

enum tageval_coefficient {
	TAGEVAL_KAPPA = 0,
	TAGEVAL_KAPPA_SEPARATE = 1,
	TAGEVAL_ALPHA = 2
};

struct tageval_agreement_options {
	size_t bootstrap;     /**< replicates for confidence intervals; 0 = none */
	unsigned long seed;   /**< of the GSL random number generator (mt19937) */
	double confidence;    /**< e.g. 0.95 */
};

TAGEVAL_EXPORT void tageval_agreement_options_init(struct tageval_agreement_options *opts);

/** The result of a computation: pooled, per lexelt, macro average, intervals. */
struct tageval_agreement;

/**
 * Computes all figures in one pass over the items (plus one per bootstrap
 * replicate).  Items annotated by one annotator only take no part; they are
 * counted per annotator.  TAGEVAL_EINVAL when fewer than two annotators
 * were read, TAGEVAL_EFORMAT when no item has two annotations.
 */
TAGEVAL_EXPORT int tageval_agreement_compute(const struct tageval_annotations *ann,
					     const struct tageval_agreement_options *opts,
					     struct tageval_agreement **out,
					     struct tageval_error *err);
TAGEVAL_EXPORT void tageval_agreement_free(struct tageval_agreement *ag);

/**
 * tageval_agreement_compute() over the @n annotators @which[] of @ann alone
 * (indices from 0 in the order they were read; n >= 2, each once): for two,
 * kappa_separate is their Cohen's kappa on the items both annotated.
 * TAGEVAL_EINVAL for fewer than two, an index out of range or repeated,
 * TAGEVAL_ENOTFOUND (*out NULL) when no item is annotated by two of them.
 * Time linear in their records plus what tageval_agreement_compute() costs
 * on them.
 */
TAGEVAL_EXPORT int tageval_agreement_subset(const struct tageval_annotations *ann,
					    const size_t *which, size_t n,
					    const struct tageval_agreement_options *opts,
					    struct tageval_agreement **out,
					    struct tageval_error *err);

/** The figures over all items (borrowed). */
TAGEVAL_EXPORT const struct tageval_agreement_figures *
tageval_agreement_pooled(const struct tageval_agreement *ag);
/** Lexelts, in order of first appearance. */
TAGEVAL_EXPORT size_t tageval_agreement_lexelts(const struct tageval_agreement *ag);
TAGEVAL_EXPORT const char *tageval_agreement_lexelt_name(const struct tageval_agreement *ag,
							  size_t i);
TAGEVAL_EXPORT const struct tageval_agreement_figures *
tageval_agreement_lexelt(const struct tageval_agreement *ag, size_t i);
/**
 * The unweighted mean of the per-lexelt values of @which over the lexelts
 * where it is defined; *used and *left_out count the lexelts (NaN if none).
 */
TAGEVAL_EXPORT double tageval_agreement_macro(const struct tageval_agreement *ag,
					      enum tageval_coefficient which, size_t *used,
					      size_t *left_out);
/** Items that only annotator @annotator annotated. */
TAGEVAL_EXPORT size_t tageval_agreement_single(const struct tageval_agreement *ag,
					       size_t annotator);
/**
 * The bootstrap percentile interval of @which over all items: TAGEVAL_OK,
 * or TAGEVAL_ENOTFOUND when no bootstrap was asked for or fewer than half
 * the replicates gave a defined value.  *replicates = replicates used.
 */
TAGEVAL_EXPORT int tageval_agreement_interval(const struct tageval_agreement *ag,
					      enum tageval_coefficient which, double *low,
					      double *high, size_t *replicates);

/** An item of tageval_agreement_least(). */
struct tageval_item_agreement {
	const char *item;    /**< "lexelt instance", borrowed from the annotations */
	size_t index;        /**< the item, for tageval_annotations_entries() */
	size_t annotations;  /**< its annotations (two or more) */
	double agreement;    /**< the mean over its pairs of annotations of <P, Q> */
};

/**
 * The @n items of least agreement among those annotated by two or more
 * annotators, into @out (room for @n), the least first; ties in the order
 * of the lexelts, then the instance ids, as bytes.  The agreement of an item
 * is its term of Pr(A) (hkappa(1)).  *count = min(n, such items).  Time:
 * one pass over the items and a sort of them.
 */
TAGEVAL_EXPORT int tageval_agreement_least(const struct tageval_annotations *ann, size_t n,
					   struct tageval_item_agreement *out, size_t *count,
					   struct tageval_error *err);

/**
 * The entries of @annotator's annotation of item @item (an index of
 * struct tageval_item_agreement): the tags of the line (with a sense map
 * that is a DAG, the leaves) and their shares of its weight, in no
 * particular order, at most @cap of them into @tags and @shares (either
 * may be NULL).  Returns their number, 0 when that annotator has none.
 */
TAGEVAL_EXPORT size_t tageval_annotations_entries(const struct tageval_annotations *ann,
						  size_t annotator, size_t item,
						  const char **tags, double *shares, size_t cap);

/** The levels of measurement of Krippendorff's alpha. */
enum tageval_level {
	TAGEVAL_NOMINAL = 0,
	TAGEVAL_ORDINAL = 1,
	TAGEVAL_INTERVAL = 2,
	TAGEVAL_RATIO = 3,
	TAGEVAL_LEVELS = 4
};

/**
 * Krippendorff's alpha at each level over all items annotated by two or more
 * annotators (hkappa(1)): the values are the leaves (with no map, the tags),
 * numbers at the ordinal, interval and ratio levels; an annotation with
 * several tags counts as the distribution over them.  Indexed by enum
 * tageval_level; an undefined alpha is NaN with its reason in undefined[].
 */
struct tageval_alpha_figures {
	size_t items;        /**< items annotated by two or more annotators */
	size_t annotations;  /**< their annotations: n */
	double d_o[TAGEVAL_LEVELS], d_e[TAGEVAL_LEVELS], alpha[TAGEVAL_LEVELS];
	int undefined[TAGEVAL_LEVELS];
};

/** The limits of the ratio level of alpha, whose distance does not reduce:
 * the distinct values, and the pairs of values compared within the items. */
#define TAGEVAL_RATIO_VALUES_MAX 20000
#define TAGEVAL_RATIO_PAIRS_MAX 200000000

/**
 * Computes the alphas of @ann from the coincidences of its values, in time
 * linear in the ratings plus a sort of the distinct values (the ratio level:
 * plus the square of the distinct values, overall and on each item).  The
 * ratio level is refused (TAGEVAL_EFORMAT, nothing computed) over more than
 * TAGEVAL_RATIO_VALUES_MAX distinct values or more than
 * TAGEVAL_RATIO_PAIRS_MAX pairs within the items (the pairs of distinct
 * values on each item plus the pairs of tags within each annotation), so
 * that its cost is bounded whatever the input.
 * @levels: the levels to compute, bit (1u << enum tageval_level) each, 0 for
 * all; the others are TAGEVAL_UNDEFINED_NOT_ASKED.
 */
TAGEVAL_EXPORT int tageval_agreement_alpha_levels(const struct tageval_annotations *ann,
						  unsigned levels,
						  struct tageval_alpha_figures *out,
						  struct tageval_error *err);

/** The chance-corrected coefficients of tageval_agreement_chance(). */
enum tageval_chance_coefficient {
	TAGEVAL_GWET_AC1 = 0,
	TAGEVAL_GWET_AC2 = 1,          /**< quadratic weights over the values */
	TAGEVAL_BRENNAN_PREDIGER = 2,
	TAGEVAL_CONGER_KAPPA = 3,
	TAGEVAL_KAPPA_LINEAR = 4,      /**< Cohen's, weights |x - y| */
	TAGEVAL_KAPPA_QUADRATIC = 5,   /**< Cohen's, weights (x - y)^2 */
	TAGEVAL_CHANCE_COEFFICIENTS = 6
};

/**
 * Indexed by enum tageval_chance_coefficient: observed and chance agreement
 * (for the weighted kappas: disagreement) and the coefficient, NaN when
 * undefined[] says why.
 */
struct tageval_chance_figures {
	size_t items;        /**< items annotated by two or more annotators */
	size_t rated;        /**< items annotated by one or more (irrCAC's n) */
	size_t categories;   /**< q of AC1 and Brennan-Prediger */
	double observed[TAGEVAL_CHANCE_COEFFICIENTS], chance[TAGEVAL_CHANCE_COEFFICIENTS];
	double value[TAGEVAL_CHANCE_COEFFICIENTS];
	int undefined[TAGEVAL_CHANCE_COEFFICIENTS];
};

/**
 * Gwet's AC1 and AC2, Brennan-Prediger and Conger's kappa with the missing
 * data conventions of Gwet's irrCAC, and Cohen's kappa with linear and
 * quadratic weights (two annotators), over the leaves (hkappa(1)).
 * @categories: q, 0 for the number of distinct labels (TAGEVAL_EINVAL when
 * smaller than that).  Linear time in the annotations plus a sort of the
 * distinct values.
 */
TAGEVAL_EXPORT int tageval_agreement_chance(const struct tageval_annotations *ann,
					    size_t categories, struct tageval_chance_figures *out,
					    struct tageval_error *err);

/**
 * tageval_agreement_chance() and tageval_agreement_alpha_levels() in one
 * pass over the items (the same figures, bit for bit, as the two calls, and
 * the error the first of them that fails would give: alpha's first; but an
 * allocation failure in the pass, TAGEVAL_ENOMEM, comes before the errors
 * of either).  When alpha's part succeeds, @alpha holds its figures even if
 * chance's part then fails.
 */
TAGEVAL_EXPORT int tageval_agreement_chance_alpha(const struct tageval_annotations *ann,
						  size_t categories, unsigned levels,
						  struct tageval_chance_figures *chance,
						  struct tageval_alpha_figures *alpha,
						  struct tageval_error *err);

/** The distance of two labels (tageval_agreement_kappa_distances()). */
struct tageval_label_distance {
	const char *first, *second; /**< leaves (with no map, tags), in either order */
	double distance;            /**< in [0, 1]; 0 when first and second are equal */
};

/** Cohen's kappa with the distances given (two annotators). */
struct tageval_weighted_kappa {
	size_t items;      /**< items both annotators annotated */
	double observed;   /**< d_o, the mean distance of the two annotations */
	double chance;     /**< d_e, the distance expected from the two marginals */
	double value;      /**< 1 - d_o / d_e; NaN when undefined says why */
	int undefined;     /**< enum tageval_undefined */
};

/**
 * Cohen's weighted kappa over the leaves of the items both annotated, with
 * the distance of each pair of labels given by @pairs (hkappa(1),
 * --weights): kappa = 1 - d_o / d_e, d_o the mean over the items of
 * sum over k, l of P_1(k) P_2(l) D(k, l), d_e = sum over k, l of
 * r_k c_l D(k, l) with r, c the mean P_1, P_2.  Each unordered pair at most
 * once (in either order), distances in [0, 1], 0 from a label to itself:
 * else TAGEVAL_EINVAL with err->line the 1-based index of the pair at
 * fault, the first in the order of @pairs (of a pair given twice, the
 * second entry).  Every pair of distinct labels the items use must be given, else
 * TAGEVAL_EFORMAT naming the pair (err->line 0); pairs of labels the items
 * do not use are checked, then ignored.  Undefined: not two annotators, no
 * item both annotated, an inner tag (as tageval_agreement_chance()), d_e = 0
 * (TAGEVAL_UNDEFINED_NO_SPREAD).  Distances |x - y| / (max - min) over
 * numeric labels give kappa_linear of tageval_agreement_chance().  Time: a
 * sort of the pairs and labels, linear in the pairs and in the products of
 * the numbers of leaves of the two annotations of each item (a tag's
 * leaves: itself, or in a DAG the leaves below an inner tag); more than
 * TAGEVAL_WEIGHTED_PAIRS_MAX such products over the items is refused
 * (TAGEVAL_EFORMAT) before they are computed.
 */
TAGEVAL_EXPORT int tageval_agreement_kappa_distances(const struct tageval_annotations *ann,
						     const struct tageval_label_distance *pairs,
						     size_t npairs,
						     struct tageval_weighted_kappa *out,
						     struct tageval_error *err);

/**
 * Cohen's kappa and Gwet's AC2 with the distances given
 * (tageval_agreement_weighted()): the agreement weights w = 1 - D.
 */
struct tageval_weighted_figures {
	struct tageval_weighted_kappa kappa; /**< as tageval_agreement_kappa_distances() */
	double kappa_se, kappa_low, kappa_high; /**< Fleiss, Cohen & Everitt; normal quantile */
	int kappa_se_undefined;
	size_t rated;        /**< items annotated once or more: AC2's n */
	size_t items;        /**< items annotated twice or more */
	size_t categories;   /**< q of AC2: the distinct labels (leaves) of the annotations */
	double ac2_observed; /**< p_a */
	double ac2_chance;   /**< p_e */
	double ac2;          /**< Gwet's AC2; NaN when ac2_undefined says why */
	int ac2_undefined;
	double ac2_se, ac2_low, ac2_high; /**< Gwet's linearization; Student t, rated - 1 df */
	int ac2_se_undefined;
};

/**
 * With the distances of @pairs (rules of tageval_agreement_kappa_distances(),
 * but every pair of distinct labels of any annotation must be given):
 * Cohen's weighted kappa (two annotators, the items both annotated) with
 * the standard error of Fleiss, Cohen & Everitt (1969) for the weights
 * w = 1 - D, and Gwet's AC2 with those weights (any number of annotators,
 * irrCAC's missing data conventions, q the distinct labels, T_w the sum of
 * w over all q x q pairs) with Gwet's linearized standard error; the
 * intervals at @confidence (0 < c < 1; 0: no standard errors, each
 * TAGEVAL_UNDEFINED_NOT_ASKED).  Undefined: as
 * tageval_agreement_kappa_distances() for the kappa; AC2 with no item
 * annotated twice, fewer than two labels, p_e = 1; a standard error with
 * fewer than two items.  Time: linear in the pairs and in the products of
 * the numbers of leaves within the items (refused beyond
 * TAGEVAL_WEIGHTED_PAIRS_MAX, hkappa(1) LIMITS), three passes.
 */
TAGEVAL_EXPORT int tageval_agreement_weighted(const struct tageval_annotations *ann,
					      const struct tageval_label_distance *pairs,
					      size_t npairs, double confidence,
					      struct tageval_weighted_figures *out,
					      struct tageval_error *err);

/**
 * tageval_agreement_weighted() with the distances of a file of lines
 * "label1 label2 distance" (hkappa(1) --weights, tageval-formats(5)
 * "Distances between labels"), read at @path ("-": standard input) as
 * every file (gzip, a UTF-8 byte-order mark, CR LF, "!!" comments; a line
 * whose first field starts with '#' is a comment too).  A distance is a
 * decimal number (a minus sign is read, then refused as out of range).
 * Errors: those of the file (TAGEVAL_EIO, TAGEVAL_EFORMAT: too few or too
 * many fields, an invalid distance; file and line), and those of
 * tageval_agreement_weighted() with err->file the file and err->line the
 * line of the pair at fault (a distance out of range, a pair listed
 * twice), or err->file the file and no line for a pair the annotations
 * need that the file does not give; the limit on the pairs of tags is the
 * annotations' (no file).  The labels are stored once each: memory linear
 * in the file's distinct labels plus about 32 bytes a pair, kept while
 * tageval_agreement_weighted() adds its own (about 80 bytes a pair at the
 * peak).  On an error (TAGEVAL_ENOMEM too), the figures are NaN with no
 * reason.
 */
TAGEVAL_EXPORT int tageval_agreement_weighted_read(const struct tageval_annotations *ann,
						   const char *path, double confidence,
						   struct tageval_weighted_figures *out,
						   struct tageval_error *err);
/** The same from the @size bytes at @data, named @name in messages. */
TAGEVAL_EXPORT int tageval_agreement_weighted_read_buffer(const struct tageval_annotations *ann,
							  const char *data, size_t size,
							  const char *name, double confidence,
							  struct tageval_weighted_figures *out,
							  struct tageval_error *err);

/** The coefficients of tageval_agreement_standard_errors(). */
enum tageval_se_coefficient {
	TAGEVAL_SE_KAPPA = 0,            /**< the pooled kappa (Fleiss' with complete data) */
	TAGEVAL_SE_KAPPA_COHEN = 1,      /**< Cohen's kappa, two annotators */
	TAGEVAL_SE_GWET_AC1 = 2,
	TAGEVAL_SE_GWET_AC2 = 3,
	TAGEVAL_SE_BRENNAN_PREDIGER = 4,
	TAGEVAL_SE_KAPPA_LINEAR = 5,
	TAGEVAL_SE_KAPPA_QUADRATIC = 6,
	TAGEVAL_SE_COEFFICIENTS = 7
};

/** How an interval of tageval_agreement_standard_errors() was made. */
enum tageval_se_method {
	TAGEVAL_SE_FLEISS_COHEN_EVERITT = 0, /**< delta method on the 2 x 2 table (FCE 1969),
					       normal quantile */
	TAGEVAL_SE_GWET = 1                  /**< Gwet's linearization over the items,
					       Student t with items - 1 degrees of
					       freedom, the upper end at most 1 */
};

/**
 * Analytic standard errors and confidence intervals (hkappa(1), "Standard
 * errors"), indexed by enum tageval_se_coefficient: value[] is the
 * coefficient as computed here (over the leaves; equal to that of
 * tageval_agreement_compute() or tageval_agreement_chance() to rounding),
 * se[] its standard error, low[] and high[] the interval at the confidence
 * asked for, method[] an enum tageval_se_method, items[] the items the
 * variance is over; NaN with the reason in undefined[] where there is none.
 */
struct tageval_standard_errors {
	double value[TAGEVAL_SE_COEFFICIENTS], se[TAGEVAL_SE_COEFFICIENTS];
	double low[TAGEVAL_SE_COEFFICIENTS], high[TAGEVAL_SE_COEFFICIENTS];
	int method[TAGEVAL_SE_COEFFICIENTS];
	size_t items[TAGEVAL_SE_COEFFICIENTS];
	int undefined[TAGEVAL_SE_COEFFICIENTS];
};

/**
 * The standard errors of the pooled kappa, Cohen's kappa (unweighted,
 * linear and quadratic weights: Fleiss, Cohen & Everitt 1969), Gwet's AC1
 * and AC2 and Brennan-Prediger (Gwet 2008, irrCAC's conventions), over the
 * leaves, with intervals at @confidence (0 < c < 1); @categories as
 * tageval_agreement_chance().  Two passes over the annotations, linear time
 * plus a sort of the distinct values and of each annotation's values.
 */
TAGEVAL_EXPORT int tageval_agreement_standard_errors(const struct tageval_annotations *ann,
						     size_t categories, double confidence,
						     struct tageval_standard_errors *out,
						     struct tageval_error *err);

/** The specific agreement on one label (tageval_agreement_per_category()). */
struct tageval_category_figure {
	const char *label;  /**< the leaf (with no map, the tag); borrowed from the inventory */
	double annotations; /**< sum over the items of S_t(k): the annotations' mass on it */
	double agreeing;    /**< sum over the items of S_t(k)^2 - sum over annotations of P(k)^2 */
	double pairs;       /**< sum over the items of (r_t - 1) S_t(k) */
	double agreement;   /**< agreeing / pairs */
};

/** The specific agreement of every label, sorted by label (bytes). */
struct tageval_category_agreement {
	size_t n;
	struct tageval_category_figure *cat;
	int undefined; /**< TAGEVAL_UNDEFINED_NO_ITEMS or _INNER_TAG: n = 0 */
};

/**
 * The proportion of specific agreement of each label k over the items
 * annotated by two or more annotators (hkappa(1), "Agreement per
 * category"): the pairs of annotations of an item that both give k, over
 * the pairs where one of them gives it, pooled over the pairs of
 * annotators and the items, sum of (S_t(k)^2 - sum of P_g(k)^2) / sum of
 * (r_t - 1) S_t(k); 2 n_kk / (n_k. + n_.k) for two annotators.  Labels used
 * only on items of one annotation are not listed.  Linear time plus a sort
 * of the labels.  Free with tageval_category_agreement_free().
 */
TAGEVAL_EXPORT int tageval_agreement_per_category(const struct tageval_annotations *ann,
						  struct tageval_category_agreement **out,
						  struct tageval_error *err);
TAGEVAL_EXPORT void tageval_category_agreement_free(struct tageval_category_agreement *ca);

/** The distances between sets of tags of tageval_agreement_alpha_sets(). */
enum tageval_set_distance {
	TAGEVAL_DISTANCE_EXACT = 0,    /**< 0 for equal sets, else 1 */
	TAGEVAL_DISTANCE_JACCARD = 1,  /**< 1 - |A and B| / |A or B| */
	TAGEVAL_DISTANCE_MASI = 2,     /**< 1 - Jaccard x (1, 2/3, 1/3, 0) */
	TAGEVAL_DISTANCES = 3
};

/** Krippendorff's alpha with each set distance, indexed by enum tageval_set_distance. */
struct tageval_set_alpha {
	size_t items;        /**< items annotated by two or more annotators */
	size_t annotations;  /**< their annotations: n */
	double d_o[TAGEVAL_DISTANCES], d_e[TAGEVAL_DISTANCES], alpha[TAGEVAL_DISTANCES];
	int undefined[TAGEVAL_DISTANCES];
};

/** The limit of tageval_agreement_alpha_sets(): pairs of distinct sets that
 * share a leaf, counted once per leaf they share. */
#define TAGEVAL_SET_PAIRS_MAX 200000000
/** The most pairs of tags (leaves) within the items that
 * tageval_agreement_kappa_distances() sums over: the sum over the items of
 * the products of the two annotations' numbers of leaves. */
#define TAGEVAL_WEIGHTED_PAIRS_MAX 200000000

/**
 * Alpha over all items annotated by two or more annotators, each annotation
 * read as the set of leaves it gives a positive mass (hkappa(1)).  Time:
 * linear in the annotations plus, for D_e, the pairs of distinct sets that
 * have a leaf in common, counted once per leaf they share: beyond
 * TAGEVAL_SET_PAIRS_MAX of them, refused with TAGEVAL_EFORMAT before that
 * work.
 */
TAGEVAL_EXPORT int tageval_agreement_alpha_sets(const struct tageval_annotations *ann,
						struct tageval_set_alpha *out,
						struct tageval_error *err);

/* ---------------------------------------------------- word sense induction */

/**
 * A gold key and a system's clustering of the same instances, for word
 * sense induction.  Both files have lines "word instance label[/weight] ...",
 * in any order; an instance is named by its instance id (unique over the
 * gold key).  Gold: every line one instance, its first label its class.
 * System: the cluster labels of an instance, a missing weight meaning 1.
 * Errors: a line without a label, a duplicate instance, an invalid weight, a
 * system line that puts a gold instance under another word.  System lines
 * for instances the gold key lacks are counted (tageval_wsi_ignored()) and
 * otherwise ignored.
 */
struct tageval_wsi;

TAGEVAL_EXPORT struct tageval_wsi *tageval_wsi_new(void);
TAGEVAL_EXPORT void tageval_wsi_free(struct tageval_wsi *wsi);

/** Reads the gold key (once, before the clusters). */
TAGEVAL_EXPORT int tageval_wsi_read_gold(struct tageval_wsi *wsi, const char *path,
					 struct tageval_error *err);
TAGEVAL_EXPORT int tageval_wsi_read_gold_buffer(struct tageval_wsi *wsi, const char *data,
						size_t size, const char *name,
						struct tageval_error *err);
/** Reads the system's clusters (once, after the gold key). */
TAGEVAL_EXPORT int tageval_wsi_read_clusters(struct tageval_wsi *wsi, const char *path,
					     struct tageval_error *err);
TAGEVAL_EXPORT int tageval_wsi_read_clusters_buffer(struct tageval_wsi *wsi, const char *data,
						    size_t size, const char *name,
						    struct tageval_error *err);

/**
 * Gold instance @i (0-based, in the order of the gold key): its word and its
 * instance id (borrowed).  TAGEVAL_EINVAL when @i is out of range.
 */
TAGEVAL_EXPORT int tageval_wsi_instance(const struct tageval_wsi *wsi, size_t i,
					const char **word, const char **instance);

/** Gold instances; system lines ignored because the gold key lacks their instance. */
TAGEVAL_EXPORT size_t tageval_wsi_instances(const struct tageval_wsi *wsi);
TAGEVAL_EXPORT size_t tageval_wsi_ignored(const struct tageval_wsi *wsi);
/**
 * Gold instances the system's clusters answer (one line each); with
 * tageval_wsi_ignored() 0 too, the clusters file has no answer line.
 */
TAGEVAL_EXPORT size_t tageval_wsi_answered(const struct tageval_wsi *wsi);

/**
 * What the two files hold beyond one bare label per line (graded keys such
 * as SemEval-2013's): lines with several labels, lines with an explicit
 * /weight, and system lines for instances the gold key lacks under one of
 * its words ("extra" instances: ignored by the SemEval-2010 metrics, counted
 * by the fuzzy ones).  The system counts are over the lines of gold
 * instances; extra_graded counts the extra lines with several labels or a
 * weight.
 */
struct tageval_wsi_counts {
	size_t gold_multi, gold_weighted;
	size_t system_multi, system_weighted;
	size_t extra, extra_graded;
};

TAGEVAL_EXPORT void tageval_wsi_counts(const struct tageval_wsi *wsi,
				       struct tageval_wsi_counts *out);
/** Does either file have a line with several labels or an explicit weight? */
TAGEVAL_EXPORT int tageval_wsi_graded(const struct tageval_wsi *wsi);

/**
 * The figures of one target word, or the totals over the selected words.
 * Per word, as the official scorers define them (reference-wsi.md):
 * V-measure, homogeneity, completeness and the paired F-score
 * (SemEval-2010: a line's first label; all unanswered instances of a word
 * form one extra cluster; singleton clusters and classes count their self
 * pair); the SemEval-2007 F-score, purity and entropy (the system label(s)
 * of largest weight, ties forming one cluster; the gold line's first label
 * as written).  Totals: the instance-weighted mean of each per-word value;
 * clusters, clusters_2007 and classes: the mean number per word.
 */
struct tageval_wsi_figures {
	size_t instances;
	double clusters;      /**< clusters (SemEval-2010 reading, extra cluster included) */
	double clusters_2007; /**< clusters (SemEval-2007 reading) */
	double classes;       /**< gold senses */
	double homogeneity, completeness, v_measure;
	double paired_precision, paired_recall, paired_fscore;
	double fscore, purity, entropy;
};

struct tageval_wsi_options {
	const char *pos;  /**< word-name suffix after its last '.', e.g. "n"; NULL or "all": every word */
	double beta;      /**< V-measure weight of completeness; 1 = the harmonic mean */
};

TAGEVAL_EXPORT void tageval_wsi_options_init(struct tageval_wsi_options *opts);

struct tageval_wsi_result;

/**
 * Evaluates every selected word, in time linear in the instances plus the
 * non-zero cells of the words' contingency tables.  TAGEVAL_EFORMAT "no
 * target word selected" when the selection is empty.
 */
TAGEVAL_EXPORT int tageval_wsi_evaluate(const struct tageval_wsi *wsi,
					const struct tageval_wsi_options *opts,
					struct tageval_wsi_result **out, struct tageval_error *err);
TAGEVAL_EXPORT void tageval_wsi_result_free(struct tageval_wsi_result *res);
/** Selected words, in order of first appearance in the gold key. */
TAGEVAL_EXPORT size_t tageval_wsi_result_words(const struct tageval_wsi_result *res);
TAGEVAL_EXPORT const char *tageval_wsi_result_word(const struct tageval_wsi_result *res,
						   size_t i);
TAGEVAL_EXPORT const struct tageval_wsi_figures *
tageval_wsi_result_figures(const struct tageval_wsi_result *res, size_t i);
TAGEVAL_EXPORT const struct tageval_wsi_figures *
tageval_wsi_result_total(const struct tageval_wsi_result *res);

/**
 * Figures of one contingency table given as dense counts @n[k * nclasses + c]
 * (clusters k, classes c), for tests and other callers: the SemEval-2010
 * and SemEval-2007 metrics of a single word whose table this is.
 */
TAGEVAL_EXPORT int tageval_wsi_table_figures(const double *n, size_t nclusters, size_t nclasses,
					     double beta, struct tageval_wsi_figures *out);

/* ------------------------------------ graded senses: SemEval-2013 WSD setting */

/**
 * A graded gold key and a system's graded answers, read as the SemEval-2013
 * Task 13 scorers read them (../shared/spec/reference-wsi2013.md section 2):
 * lines "word instance label[/weight] ...", an instance being the pair (word,
 * instance id).  Every label is kept with its membership: the weight divided
 * by the largest weight of the line, or 1 for every label of a line where
 * some label has no weight or names a label twice (the label is then kept
 * once: the jars' reading of the 17 such lines of the task's gold key,
 * counted by tageval_graded_repeated()).  Errors (file:line): a line without
 * a label, an instance listed twice in one file, an invalid or negative
 * weight, a line whose weights are all 0.  System lines for
 * a word the gold key lacks are counted (tageval_graded_ignored()) and
 * ignored; system lines for other instances of a gold word are kept as
 * "extra instances" (they count in a word's sense count without remapping).
 */
struct tageval_graded;

TAGEVAL_EXPORT struct tageval_graded *tageval_graded_new(void);
TAGEVAL_EXPORT void tageval_graded_free(struct tageval_graded *g);

/** Reads the gold key (once, before the system). */
TAGEVAL_EXPORT int tageval_graded_read_gold(struct tageval_graded *g, const char *path,
					    struct tageval_error *err);
TAGEVAL_EXPORT int tageval_graded_read_gold_buffer(struct tageval_graded *g, const char *data,
						   size_t size, const char *name,
						   struct tageval_error *err);
/** Reads the system's answers (once, after the gold key). */
TAGEVAL_EXPORT int tageval_graded_read_system(struct tageval_graded *g, const char *path,
					      struct tageval_error *err);
TAGEVAL_EXPORT int tageval_graded_read_system_buffer(struct tageval_graded *g, const char *data,
						     size_t size, const char *name,
						     struct tageval_error *err);

/** Gold instances; system lines ignored (word not in the gold key); extra instances. */
TAGEVAL_EXPORT size_t tageval_graded_instances(const struct tageval_graded *g);
TAGEVAL_EXPORT size_t tageval_graded_ignored(const struct tageval_graded *g);
TAGEVAL_EXPORT size_t tageval_graded_extra(const struct tageval_graded *g);
/** Lines (of both files) that name a label twice. */
TAGEVAL_EXPORT size_t tageval_graded_repeated(const struct tageval_graded *g);
/** Lines of the system file (answers, ignored lines and extra instances):
 *  0 when the system attempted nothing. */
TAGEVAL_EXPORT size_t tageval_graded_system_lines(const struct tageval_graded *g);

/** Which gold instances are evaluated, as if the gold key held only them. */
enum tageval_graded_subset {
	TAGEVAL_GRADED_ALL = 0,
	TAGEVAL_GRADED_SINGLE_SENSE = 1, /**< gold lines with one label field */
	TAGEVAL_GRADED_MULTI_SENSE = 2   /**< gold lines with several label fields
					      (as the task's all.multisense.key) */
};

struct tageval_graded_options {
	const char *pos;       /**< word-name suffix after its last '.'; NULL or "all": every word */
	enum tageval_graded_subset subset;
	int no_remapping;      /**< compare the system's labels with the gold senses directly */
	int shuffle;           /**< 0: the official folds; 1: shuffle with @seed first */
	unsigned long seed;    /**< GSL mt19937 seed of the shuffle */
};

TAGEVAL_EXPORT void tageval_graded_options_init(struct tageval_graded_options *opts);

/**
 * The WSD-setting figures of one word or of the total (section 5.6): the
 * Jaccard index, positionally weighted Kendall's tau and weighted NDCG, each
 * the mean over the answered instances; X_recall = mean x coverage, X_f1 =
 * the harmonic mean of the two; coverage = answered / instances.  senses:
 * the word's sense count K (0 in the total).
 */
struct tageval_graded_figures {
	size_t instances, answered, senses;
	double jaccard, kendall_tau, wndcg;
	double jaccard_recall, kendall_tau_recall, wndcg_recall;
	double jaccard_f1, kendall_tau_f1, wndcg_f1;
	double coverage;
};

struct tageval_graded_result;

/**
 * The SemEval-2013 WSD setting over the selected gold instances: five folds
 * (instance k of the selection, words in order of first appearance, is tested
 * in fold k mod 5), each fold's test instances remapped from the induced
 * senses to the gold senses with the other four folds (unless
 * @opts->no_remapping), then scored.  With @opts->shuffle the selection is
 * taken in byte order of the instance ids before the shuffle.  Totals are
 * exactly rounded sums: the system file's line order changes no bit (nor,
 * without remapping or with @opts->shuffle, the gold key's).  A mean over
 * no answered instance is 0 (answered == 0 tells).  TAGEVAL_EFORMAT "no
 * target word selected" when the selection is empty.  The result borrows the words'
 * names from @g, which must outlive it.
 */
TAGEVAL_EXPORT int tageval_graded_evaluate(const struct tageval_graded *g,
					   const struct tageval_graded_options *opts,
					   struct tageval_graded_result **out,
					   struct tageval_error *err);
TAGEVAL_EXPORT void tageval_graded_result_free(struct tageval_graded_result *res);
/** Selected words, in order of first appearance in the gold key. */
TAGEVAL_EXPORT size_t tageval_graded_result_words(const struct tageval_graded_result *res);
TAGEVAL_EXPORT const char *tageval_graded_result_word(const struct tageval_graded_result *res,
						      size_t i);
TAGEVAL_EXPORT const struct tageval_graded_figures *
tageval_graded_result_figures(const struct tageval_graded_result *res, size_t i);
TAGEVAL_EXPORT const struct tageval_graded_figures *
tageval_graded_result_total(const struct tageval_graded_result *res);

/**
 * The three per-instance scores of section 5.3-5.5 for one answered instance:
 * gold senses @gl with memberships @gm (@ng of them), system senses @sl with
 * ratings @sr (@ns >= 1), the word's sense count @k (>= the size of the
 * union).  Labels are compared by name; equal ratings are ordered by name as
 * the jars do.  For tests and other callers.
 */
TAGEVAL_EXPORT int tageval_graded_instance_scores(const char *const *gl, const double *gm,
						  size_t ng, const char *const *sl,
						  const double *sr, size_t ns, size_t k,
						  double *jaccard, double *kendall_tau,
						  double *wndcg);

/* ---------------------------------- clustering metrics (B-cubed, NMI, ARI) */

/**
 * Clustering metrics of word sense induction (reference-wsi2013.md):
 * crisp (one label per line: its label of largest weight, the first on
 * ties; the unanswered gold instances of a word form one extra cluster):
 * ARI, Rand, Fowlkes-Mallows, NMI, AMI (expected mutual information under
 * the permutation model) and item-averaged B-cubed (Bagga & Baldwin), as
 * scikit-learn 1.2 defines them, natural logarithms; fuzzy (graded or
 * multi-label keys, SemEval-2013 Task 13): fuzzy B-cubed and fuzzy NMI as
 * the task's jars compute them, system lines for instances the gold key
 * lacks under one of its words ("extra" instances) included.
 * A value that is not defined is NaN.
 */
enum tageval_normalizer {
	TAGEVAL_NORMALIZER_DEFAULT,    /**< arithmetic (crisp), max (fuzzy) */
	TAGEVAL_NORMALIZER_ARITHMETIC,
	TAGEVAL_NORMALIZER_GEOMETRIC,
	TAGEVAL_NORMALIZER_MIN,
	TAGEVAL_NORMALIZER_MAX,
};

enum tageval_clustering_mode {
	TAGEVAL_CLUSTERING_AUTO,  /**< fuzzy when tageval_wsi_graded(), else crisp */
	TAGEVAL_CLUSTERING_CRISP,
	TAGEVAL_CLUSTERING_FUZZY,
};

/** Metric families for tageval_clustering_options.metrics (0: all). */
#define TAGEVAL_CLUSTERING_BCUBED 1u /**< B-cubed */
#define TAGEVAL_CLUSTERING_NMI 2u    /**< NMI and AMI */
#define TAGEVAL_CLUSTERING_PAIRS 4u  /**< ARI, Rand, Fowlkes-Mallows */
/* (0x100 is taken: TAGEVAL_WSI_REPORT_NO_2007) */

struct tageval_clustering_options {
	const char *pos;                    /**< as in tageval_wsi_options */
	enum tageval_clustering_mode mode;
	enum tageval_normalizer normalizer; /**< of NMI and AMI */
	unsigned metrics;                   /**< families computed; the others NaN */
};

TAGEVAL_EXPORT void tageval_clustering_options_init(struct tageval_clustering_options *opts);

struct tageval_clustering_figures {
	size_t instances;         /**< gold instances */
	double ari, rand, fowlkes_mallows;   /**< crisp only (NaN when fuzzy) */
	double nmi, ami;          /**< ami: crisp only */
	double bcubed_precision, bcubed_recall, bcubed_fscore;
	/** sqrt(bcubed_fscore * nmi), the geometric mean that SemEval-2013
	 * Task 13 papers report as AVG, of this word's (or total's, or the
	 * pooled) figures; NaN unless both families are computed */
	double avg;
};

struct tageval_clustering_result;

/**
 * Per word, the totals and (crisp) the pooled figures.  Totals: crisp, the
 * instance-weighted mean of each per-word value (NaN when a word's is NaN),
 * B-cubed F from the total P and R; fuzzy, the unweighted mean over the
 * selected gold words, F from the mean P and R.  Pooled (crisp): the
 * metrics once over all instances, a class being (word, gold label) and a
 * cluster (word, system label).  TAGEVAL_EFORMAT for a line whose weights
 * are all 0 (fuzzy mode), and "no target word selected".
 */
TAGEVAL_EXPORT int tageval_clustering_evaluate(const struct tageval_wsi *wsi,
					       const struct tageval_clustering_options *opts,
					       struct tageval_clustering_result **out,
					       struct tageval_error *err);
TAGEVAL_EXPORT void tageval_clustering_result_free(struct tageval_clustering_result *res);
/** 1 when the result holds the fuzzy metrics, 0 for the crisp ones. */
TAGEVAL_EXPORT int tageval_clustering_result_fuzzy(const struct tageval_clustering_result *res);
/**
 * Fuzzy: the lines that give a label twice, read as the SemEval-2013 jars do
 * (the label once, every membership of the line 1).
 */
TAGEVAL_EXPORT size_t
tageval_clustering_result_repeated(const struct tageval_clustering_result *res);
TAGEVAL_EXPORT size_t tageval_clustering_result_words(const struct tageval_clustering_result *res);
TAGEVAL_EXPORT const char *
tageval_clustering_result_word(const struct tageval_clustering_result *res, size_t i);
TAGEVAL_EXPORT const struct tageval_clustering_figures *
tageval_clustering_result_figures(const struct tageval_clustering_result *res, size_t i);
TAGEVAL_EXPORT const struct tageval_clustering_figures *
tageval_clustering_result_total(const struct tageval_clustering_result *res);
/** NULL for fuzzy results. */
TAGEVAL_EXPORT const struct tageval_clustering_figures *
tageval_clustering_result_pooled(const struct tageval_clustering_result *res);

/**
 * The crisp metrics of one contingency table, dense counts @n[k * nclasses + c]
 * (clusters k, classes c; non-negative integers), for tests and other callers.
 */
TAGEVAL_EXPORT int tageval_clustering_table(const double *n, size_t nclusters, size_t nclasses,
					    enum tageval_normalizer normalizer,
					    struct tageval_clustering_figures *out);

/** One instance's labels and memberships, for tageval_clustering_fuzzy_table(). */
struct tageval_membership {
	size_t instance;  /**< 0 .. instances - 1 */
	size_t label;     /**< any number naming the label */
	double weight;    /**< membership, as after the per-line normalisation */
};

/**
 * The fuzzy B-cubed and fuzzy NMI of one word from its memberships, for tests:
 * gold and system memberships of @instances instances, of which the first
 * @gold_instances are the gold ones (the rest: extra instances).
 */
TAGEVAL_EXPORT int tageval_clustering_fuzzy_table(const struct tageval_membership *gold,
						  size_t ngold,
						  const struct tageval_membership *sys, size_t nsys,
						  size_t instances, size_t gold_instances,
						  enum tageval_normalizer normalizer,
						  struct tageval_clustering_figures *out);

/* ------------------------------------------------- supervised WSI evaluation */

/**
 * The supervised evaluation of induced senses (SemEval-2007/2010): on each
 * split of the gold instances, the mapping instances give P(sense | cluster),
 *   M[c][s] = S[s][c] / sum over s' of S[s'][c],
 *   S[s][c] = sum over mapping instances labelled s (a line with n gold
 *             labels gives each 1/n) of the instance's weight on cluster c
 *             (raw weights, a missing weight meaning 1);
 * a test instance's cluster vector times M gives a score per sense, the
 * highest wins (ties: the first sense in bytewise order), and no answer is
 * given when every score is 0 (unseen clusters only, or a word without
 * mapping instances).  The answers are scored against the test instances'
 * gold labels with the scorer (fine-grained): precision, recall, attempted.
 *
 * Splits are built on the gold instances of the selected words: from a pair
 * of key files, as k folds (every instance tested exactly once), or as
 * random splits with round(fraction * n_w) test instances per word; folds
 * and random splits are stratified by word and drawn with GSL's mt19937.
 */
struct tageval_supervised;

/** @wsi (gold and clusters read) must outlive the object; @pos as in tageval_wsi_options. */
TAGEVAL_EXPORT int tageval_supervised_new(const struct tageval_wsi *wsi, const char *pos,
					  struct tageval_supervised **out,
					  struct tageval_error *err);
TAGEVAL_EXPORT void tageval_supervised_free(struct tageval_supervised *sup);

/**
 * One split from a mapping key and a test key (gold format; their labels
 * are used).  Errors: an instance the gold key lacks, an instance in both,
 * a duplicate, the file errors of the gold reader.
 */
TAGEVAL_EXPORT int tageval_supervised_add_files(struct tageval_supervised *sup,
						const char *mapping, const char *test,
						struct tageval_error *err);
TAGEVAL_EXPORT int tageval_supervised_add_buffers(struct tageval_supervised *sup,
						  const char *mapping, size_t mapping_size,
						  const char *test, size_t test_size,
						  struct tageval_error *err);
/** @k folds (k >= 2): each word's instances shuffled, instance i in fold i mod k.
 *  TAGEVAL_EFORMAT, before anything is allocated, when @k is above the
 *  instances of every selected word (a fold would test nothing). */
TAGEVAL_EXPORT int tageval_supervised_add_folds(struct tageval_supervised *sup, size_t k,
						unsigned long seed, struct tageval_error *err);
/** @n random splits with round(@fraction * n_w) test instances of each word. */
TAGEVAL_EXPORT int tageval_supervised_add_random(struct tageval_supervised *sup, size_t n,
						 double fraction, unsigned long seed,
						 struct tageval_error *err);
TAGEVAL_EXPORT size_t tageval_supervised_splits(const struct tageval_supervised *sup);

struct tageval_supervised_result {
	size_t mapping;      /**< mapping instances */
	size_t test;         /**< test instances */
	size_t answered;     /**< test instances given a sense */
	double correct;
	double precision;    /**< correct / answered */
	double recall;       /**< correct / test */
	double attempted;    /**< answered / test */
};

/**
 * Maps and scores split @i.  When @mapped is not NULL it receives a new
 * string (free() it) with the answers, one "word instance sense !! score S"
 * line per answered test instance, grouped by word (words in the order of
 * the gold key, each word's instances in the gold key's order).
 */
TAGEVAL_EXPORT int tageval_supervised_evaluate(struct tageval_supervised *sup, size_t i,
					       struct tageval_supervised_result *res,
					       char **mapped, struct tageval_error *err);

/* ------------------------- all-words WSD: the unified evaluation framework */

/**
 * A gold key of the unified WSD evaluation framework (Raganato et al. 2017)
 * and a system's answers: lines "id key [key ...]", the fields separated by
 * single spaces, in any order.  An answer of n distinct keys, k of them gold
 * keys of its instance, earns k/n; precision is the credit over the answered
 * gold instances, recall over all of them, F1 their harmonic mean (0 when
 * both are 0).  Errors (TAGEVAL_EFORMAT, with file and line): a blank line,
 * an id without a key, a leading blank, a tab, two blanks in a row, a
 * control character or bytes that are not UTF-8 in a field, an id given
 * twice (in either file), a system id the gold key lacks (unless
 * TAGEVAL_WSD_SUBSET), the keys of one gold line of different parts of
 * speech, a gold key without instances.
 */
struct tageval_wsd;

/** The parts of speech of the breakdown (adjective satellites are adjectives). */
enum tageval_wsd_pos { TAGEVAL_WSD_NOUN, TAGEVAL_WSD_VERB, TAGEVAL_WSD_ADJ, TAGEVAL_WSD_ADV };

/** System ids that the gold key lacks are counted (tageval_wsd_unknown()), not errors. */
#define TAGEVAL_WSD_SUBSET 1u

/** The figures of a group of gold instances; NaN where undefined (precision
 * and F1 with nothing answered, recall and F1 of an empty group). */
struct tageval_wsd_figures {
	size_t instances; /**< gold instances */
	size_t answered;  /**< those with a system line */
	double correct;   /**< the summed credit (exactly rounded) */
	double precision, recall, f1;
};

TAGEVAL_EXPORT struct tageval_wsd *tageval_wsd_new(void);
TAGEVAL_EXPORT void tageval_wsd_free(struct tageval_wsd *wsd);
/** Reads the gold key (once). */
TAGEVAL_EXPORT int tageval_wsd_read_gold(struct tageval_wsd *wsd, const char *path,
					 struct tageval_error *err);
TAGEVAL_EXPORT int tageval_wsd_read_gold_buffer(struct tageval_wsd *wsd, const char *data,
						size_t size, const char *name,
						struct tageval_error *err);
/** Reads a system's answers (after the gold key), replacing the system read before. */
TAGEVAL_EXPORT int tageval_wsd_read_system(struct tageval_wsd *wsd, const char *path,
					   unsigned flags, struct tageval_error *err);
TAGEVAL_EXPORT int tageval_wsd_read_system_buffer(struct tageval_wsd *wsd, const char *data,
						  size_t size, const char *name, unsigned flags,
						  struct tageval_error *err);
/** Gold instances; those the system answers; system lines for ids the gold key lacks. */
TAGEVAL_EXPORT size_t tageval_wsd_instances(const struct tageval_wsd *wsd);
TAGEVAL_EXPORT size_t tageval_wsd_answered(const struct tageval_wsd *wsd);
TAGEVAL_EXPORT size_t tageval_wsd_unknown(const struct tageval_wsd *wsd);
/** The figures over every gold instance. */
TAGEVAL_EXPORT int tageval_wsd_total(const struct tageval_wsd *wsd,
				     struct tageval_wsd_figures *out, struct tageval_error *err);
/**
 * Datasets: the ids of four dot-separated parts or more ("senseval2.d000.s000.t000",
 * the framework's ALL) grouped by their first part; dataset @i (0-based, in
 * bytewise order of the names): its name (borrowed) and figures.
 */
TAGEVAL_EXPORT size_t tageval_wsd_datasets(const struct tageval_wsd *wsd);
TAGEVAL_EXPORT int tageval_wsd_dataset(const struct tageval_wsd *wsd, size_t i,
				       const char **name, struct tageval_wsd_figures *out,
				       struct tageval_error *err);
/** The figures of the gold instances whose keys are WordNet sense keys
 * ("lemma%T:...") of synset type @pos (1 noun, 2 verb, 3 and 5 adjective, 4 adverb). */
TAGEVAL_EXPORT int tageval_wsd_pos(const struct tageval_wsd *wsd, enum tageval_wsd_pos pos,
				   struct tageval_wsd_figures *out, struct tageval_error *err);

/**
 * Reads the parts of speech of the gold instances from the framework's data
 * file (NAME.data.xml), after the gold key: the pos attribute of each
 * <instance id="..." pos="..."> element, NOUN, VERB, ADJ or ADV, replaces
 * the part of speech read off the gold keys.  Instances the gold key lacks
 * are ignored.  TAGEVAL_EFORMAT: XML that is not well-formed, an instance
 * without id or pos, a pos of another value or a gold instance given twice
 * (with the line), a gold instance missing from the file.  TAGEVAL_EINVAL
 * when the library is built without expat (tageval_wsd_data_supported() 0).
 */
TAGEVAL_EXPORT int tageval_wsd_read_data(struct tageval_wsd *wsd, const char *path,
					 struct tageval_error *err);
TAGEVAL_EXPORT int tageval_wsd_read_data_buffer(struct tageval_wsd *wsd, const char *data,
						size_t size, const char *name,
						struct tageval_error *err);
/** 1 when tageval_wsd_read_data() can read a data file (built with expat), else 0. */
TAGEVAL_EXPORT int tageval_wsd_data_supported(void);

/**
 * The credit of each gold instance (k/n, 0 when unanswered) for the system
 * read last, and whether it is answered (1 or 0), into @credit and
 * @answered (tageval_wsd_instances() elements each): the instances in the
 * bytewise order of their ids, so that the order of the lines changes
 * nothing.  The vectors of several systems read one after the other are
 * what tageval_wsd_compare() takes.
 */
TAGEVAL_EXPORT int tageval_wsd_credits(struct tageval_wsd *wsd, double *credit,
				       unsigned char *answered, struct tageval_error *err);

/** A system compared with the reference system of tageval_wsd_compare(). */
struct tageval_wsd_comparison {
	double f1;          /**< F1 over all instances: 2C / (A + I) */
	double delta;       /**< the reference's F1 minus this one's */
	double bootstrap_p; /**< paired bootstrap, two-sided; NaN for the reference itself */
	double randomization_p; /**< approximate randomization, two-sided; NaN likewise */
	double mcnemar_p;   /**< McNemar's exact test, two-sided; NaN unless every
			     *   credit of both systems is 0 or 1 (single right or
			     *   wrong answers), and for the reference itself */
	size_t ref_only;    /**< instances the reference gets right (credit 1) and this one wrong (0) */
	size_t other_only;  /**< the reverse */
};

/**
 * Significance of the differences in F1 between system @ref and each other
 * of @nsys systems over the same @n gold instances: @credit[s * n + i] and
 * @answered[s * n + i] are system s's vectors from tageval_wsd_credits().
 * F1 is 2C / (A + I) for C the summed credit, A the answered and I the
 * instances of a sample; the statistic is t = F1(ref) - F1(s).  Each test
 * is two-sided, with p = (r + 1) / (samples + 1):
 *
 * - paired bootstrap: MT19937 seeded with @seed; each of @samples samples
 *   draws n instances with replacement, shared by all systems, each draw
 *   the high 32 bits of x n for x = gsl_rng_get(rng), x drawn again while
 *   the low 32 bits are below 2^32 mod n (unbiased); r counts the samples
 *   with |t* - t| >= |t|
 *   (the bootstrap distribution shifted to the null of no difference);
 * - approximate randomization: a second MT19937 seeded with @seed; each
 *   sample takes ceil(n / 32) words gsl_rng_get(rng) and exchanges the
 *   two systems' (credit, answered) of instance i when bit i % 32 of word
 *   i / 32 is set, the same exchanges for every pair; r counts the samples
 *   with |t*| >= |t|;
 * - McNemar's exact test: b = ref_only, c = other_only, p = min(1,
 *   2 P(X <= min(b, c))) for X binomial (b + c, 1/2); 1 when b + c = 0.
 *
 * Differences below 1e-12 count as ties.  @samples 0: no bootstrap and no
 * randomization (NaN p-values).  @out holds @nsys elements.
 */
TAGEVAL_EXPORT int tageval_wsd_compare(size_t nsys, size_t n, const double *credit,
				       const unsigned char *answered, size_t ref, size_t samples,
				       unsigned long seed, struct tageval_wsd_comparison *out,
				       struct tageval_error *err);

/** The statistic of tageval_compare(), of a system's summed credit C and
 * attempted A over I instances. */
enum tageval_statistic {
	TAGEVAL_STATISTIC_F1 = 0,        /**< 2C / (A + I), 0 when both are 0 */
	TAGEVAL_STATISTIC_PRECISION = 1, /**< C / A, 0 when A is 0 */
	TAGEVAL_STATISTIC_RECALL = 2     /**< C / I */
};

/**
 * tageval_wsd_compare() for any per-instance credits and several
 * references: @attempted[s * n + i] is the mass system s attempted on
 * instance i (1 or 0 for an answer of the unified framework; scorer2's
 * answer weights in tageval_report_credits()), the statistic is @stat
 * rather than F1 (the @f1 and @delta of @out are then that statistic), and
 * each system is compared with each of the @nref systems @refs:
 * @out[r * nsys + s] is system s against @refs[r] (@out holds nref x nsys
 * elements).  The draws are those of tageval_wsd_compare(), shared by all
 * references, so each block of @out equals a call with that reference
 * alone, and F1 with attempted 1 or 0 gives tageval_wsd_compare()'s
 * p-values bit for bit; the bootstrap's samples are drawn once for all
 * references.  An instance's attempted mass takes part in the exchanges
 * and draws as the answered flag does.
 */
TAGEVAL_EXPORT int tageval_compare(size_t nsys, size_t n, const double *credit,
				   const double *attempted, enum tageval_statistic stat,
				   const size_t *refs, size_t nref, size_t samples,
				   unsigned long seed, struct tageval_wsd_comparison *out,
				   struct tageval_error *err);

/* --------------------------------------------- word sense induction reports */

/**
 * A gold key read once (any file: a pipe or a gzip-compressed key works)
 * and clusterings evaluated against it one after the other, as
 * wsi-report(1) does: each tageval_wsi_report_read_clusters() or
 * tageval_wsi_report_baseline() replaces the clustering held before.  The
 * figures are those of tageval_wsi_evaluate(), tageval_clustering_evaluate()
 * and tageval_supervised_evaluate() on a tageval_wsi holding the gold key
 * and that clustering alone, bit for bit; the supervised splits of a
 * protocol are built from the gold key once, at its first evaluation, and
 * reused for every clustering after.
 */
struct tageval_wsi_report;

TAGEVAL_EXPORT int tageval_wsi_report_new(const char *gold, struct tageval_wsi_report **out,
					  struct tageval_error *err);
TAGEVAL_EXPORT int tageval_wsi_report_new_buffer(const char *data, size_t size,
						 const char *name,
						 struct tageval_wsi_report **out,
						 struct tageval_error *err);
TAGEVAL_EXPORT void tageval_wsi_report_free(struct tageval_wsi_report *rep);
/** The gold key and the clustering last read, borrowed (for its counts and notes). */
TAGEVAL_EXPORT const struct tageval_wsi *
tageval_wsi_report_wsi(const struct tageval_wsi_report *rep);
TAGEVAL_EXPORT int tageval_wsi_report_read_clusters(struct tageval_wsi_report *rep,
						    const char *path, struct tageval_error *err);
TAGEVAL_EXPORT int tageval_wsi_report_read_clusters_buffer(struct tageval_wsi_report *rep,
							   const char *data, size_t size,
							   const char *name,
							   struct tageval_error *err);

/** The baselines of wsi-baseline(1). */
enum tageval_wsi_baseline {
	TAGEVAL_WSI_1C1W,    /**< one cluster per word, "cl1" */
	TAGEVAL_WSI_1C1INST, /**< one cluster per instance, "cl1", "cl2", ... */
	TAGEVAL_WSI_RANDOM   /**< "rand0" ... "rand<k-1>", drawn uniformly */
};

/**
 * Takes a baseline clustering of every gold instance, as the clusters file
 * wsi-baseline(1) writes for a gold key in bytewise order of the instance
 * ids: the instances in that order (instance i of it is "cl<i>" in
 * TAGEVAL_WSI_1C1INST), the random clusters drawn in that order with GSL's
 * mt19937 seeded with @seed, below @k (k >= 1; @seed and @k are not used by
 * the other two).
 */
TAGEVAL_EXPORT int tageval_wsi_report_baseline(struct tageval_wsi_report *rep,
					       enum tageval_wsi_baseline baseline,
					       unsigned long seed, unsigned long k,
					       struct tageval_error *err);

/* Not a metric family: a flag of tageval_wsi_report_figures()' @families
 * (0x100, beside the TAGEVAL_CLUSTERING_* bits). */
#define TAGEVAL_WSI_REPORT_NO_2007 0x100u

/**
 * The totals of the clustering's figures on @pos (as in tageval_wsi_options):
 * those of tageval_wsi_evaluate() in @wsi, and when @families is not 0
 * those of tageval_clustering_evaluate() with those metrics (fuzzy when
 * the gold key has a line of several labels or a weight, else crisp) in
 * @clu, and in @repeated (may be NULL) its tageval_clustering_result_repeated().
 * TAGEVAL_WSI_REPORT_NO_2007 in @families (not a metric family): the
 * SemEval-2007 figures of @wsi (clusters_2007, fscore, purity, entropy) are
 * not computed but NaN, and the others are the same.
 */
TAGEVAL_EXPORT int tageval_wsi_report_figures(const struct tageval_wsi_report *rep,
					      const char *pos, unsigned families,
					      struct tageval_wsi_figures *wsi,
					      struct tageval_clustering_figures *clu,
					      size_t *repeated, struct tageval_error *err);

/**
 * Supervised protocols on the words of @pos, numbered in the order they are
 * added (*@proto, may be NULL): @k folds, @n random splits, or @n pairs of
 * split files, as tageval_supervised_add_folds(), _add_random() and
 * _add_files() make them.  The splits are built (and their errors found) at
 * the protocol's first tageval_wsi_report_supervised().
 */
TAGEVAL_EXPORT int tageval_wsi_report_add_folds(struct tageval_wsi_report *rep, const char *pos,
						size_t k, unsigned long seed, size_t *proto,
						struct tageval_error *err);
TAGEVAL_EXPORT int tageval_wsi_report_add_random(struct tageval_wsi_report *rep,
						 const char *pos, size_t n, double fraction,
						 unsigned long seed, size_t *proto,
						 struct tageval_error *err);
TAGEVAL_EXPORT int tageval_wsi_report_add_files(struct tageval_wsi_report *rep, const char *pos,
						size_t n, const char *const *mapping,
						const char *const *test, size_t *proto,
						struct tageval_error *err);
/**
 * The clustering held, evaluated on each split of protocol @proto: *@out
 * receives a new array (free() it) of *@n results, in the splits' order.
 */
TAGEVAL_EXPORT int tageval_wsi_report_supervised(struct tageval_wsi_report *rep, size_t proto,
						 struct tageval_supervised_result **out,
						 size_t *n, struct tageval_error *err);

/* ------------------------------------------------------------ results report */

/**
 * Sense entropy in bits: -sum p_i log2 p_i with p_i = @weights[i] / sum of
 * the weights.  Zero weights take no part; 0 when the sum is 0.  Negative
 * or non-finite weights give NaN.
 */
TAGEVAL_EXPORT double tageval_entropy(const double *weights, size_t n);

/**
 * The Senseval results report (spec 002): several systems and baselines
 * scored against one test key at every granularity (fine; with a sense map
 * also mixed and coarse), fully and minimally, on task subsets, with the
 * sense entropy of each lexelt and subset and, per subset, the average,
 * best and worst system.  Each system file is read once, every granularity
 * scored from that read (a scorer per granularity, side by side); the scorer's per-answer events add every answer's credit and mass to all
 * the subsets holding its instance.  wsd-report(1) gives the definitions:
 *
 * - a lexelt is the first field of a key line; its senses are every tag of
 *   the sense-map trees (a top-level tag and all tags below it) that hold a
 *   tag seen with the lexelt in the test or the training key, except the
 *   tags "U" (unassignable) and "P" (proper name); its polysemy is their
 *   number;
 * - its fine entropy is that of its tags in the test and training keys,
 *   each instance weighing 1, shared evenly by its distinct tags ("U" and
 *   "P" included); coarse entropy the same after mapping every tag to its
 *   top-level tag; a subset's entropy is the mean of its lexelts',
 *   weighted by the subset's items of each lexelt;
 * - subsets: "all"; "nouns", "verbs", "adjectives", "indeterminates" by the
 *   lexelt's suffix (-n or .n, -v or .v, -a or .a, -p); "trainable" and
 *   "untrainable" (lexelts with and without training instances; only with
 *   a training key); "low-polysemy" / "high-polysemy" and "low-entropy" /
 *   "high-entropy" (fine entropy below / at or above the median over the
 *   key's lexelts, the mean of the two middle values for an even number);
 *   the user's subsets; one subset per lexelt, named after it, in bytewise
 *   order.  Built-in subsets without items are left out, except "all".
 *
 * A report needs a tree-shaped sense map (or none): TAGEVAL_EFORMAT when a
 * tag has several parents, with the line of the map that gives the first
 * second parent in err->line (err->file is left empty: the report does not
 * know the map's name).
 */
struct tageval_report;

enum tageval_subset_kind {
	TAGEVAL_SUBSET_ALL = 0,
	TAGEVAL_SUBSET_POS = 1,            /**< nouns, verbs, adjectives, indeterminates */
	TAGEVAL_SUBSET_TRAINABLE = 2,
	TAGEVAL_SUBSET_UNTRAINABLE = 3,
	TAGEVAL_SUBSET_LOW_POLYSEMY = 4,
	TAGEVAL_SUBSET_HIGH_POLYSEMY = 5,
	TAGEVAL_SUBSET_LOW_ENTROPY = 6,
	TAGEVAL_SUBSET_HIGH_ENTROPY = 7,
	TAGEVAL_SUBSET_USER = 8,           /**< from tageval_report_add_subset() */
	TAGEVAL_SUBSET_LEXELT = 9          /**< the items of one lexelt */
};

/** A subset of the test items (borrowed from the report). */
struct tageval_report_subset {
	const char *name;
	enum tageval_subset_kind kind;
	size_t items;          /**< test instances in the subset */
	size_t lexelts;        /**< lexelts with at least one of them */
	double fine_entropy;   /**< item-weighted mean of the lexelts' entropies, bits */
	double coarse_entropy;
};

/** A lexelt of the test key (borrowed from the report). */
struct tageval_report_lexelt {
	const char *name;
	char pos;              /**< 'n', 'v', 'a', 'p', or 0 when the suffix says nothing */
	size_t items;          /**< test instances */
	size_t train_items;    /**< training instances (0: untrainable) */
	size_t polysemy;       /**< number of senses */
	double fine_entropy;   /**< bits */
	double coarse_entropy;
	size_t commonest;      /**< tags guessed by the commonest baseline (0: abstains) */
};

/** The baselines of spec 002 that need no dictionary text. */
enum tageval_baseline {
	TAGEVAL_BASELINE_RANDOM = 0,      /**< uniform over the lexelt's senses */
	TAGEVAL_BASELINE_RANDOM_MAIN = 1, /**< uniform over its top-level senses */
	TAGEVAL_BASELINE_COMMONEST = 2    /**< its most frequent single training tag(s) */
};

/** "random", "random-main", "commonest"; NULL for another value. */
TAGEVAL_EXPORT const char *tageval_baseline_name(enum tageval_baseline which);

/** One system on one subset, granularity and minimal flag. */
struct tageval_report_cell {
	double correct;
	double attempted;  /**< sum of the answers' masses (fractional) */
	double total;      /**< items counted (minimal: single-tag items only) */
	double precision;  /**< correct / attempted, NaN when nothing was attempted */
	double recall;     /**< correct / total, NaN when total is 0 */
};

#define TAGEVAL_REPORT_NONE ((size_t)-1)

/**
 * The systems of one subset, granularity and minimal flag (baselines take
 * no part): unweighted means, and the best and worst system ranked by
 * precision, ties by recall, remaining ties by the order the systems were
 * added.  Systems that attempted nothing there have no precision: they
 * count in the recall and attempted means only, and are not ranked.
 */
struct tageval_report_summary {
	size_t systems;      /**< systems averaged */
	size_t ranked;       /**< of those, systems with a precision */
	double precision;    /**< NaN when none has one */
	double recall;       /**< NaN when the subset has no item */
	double attempted;
	size_t best, worst;  /**< system indices, TAGEVAL_REPORT_NONE when ranked is 0 */
};

/**
 * Builds the lexelts and the built-in subsets of @key (read with @inv, its
 * sense map read first if any); @train (NULL = none, read with the same
 * @inv) gives trainability, part of the entropies and the commonest
 * baseline.  @inv, @key and @train must outlive the report.
 */
TAGEVAL_EXPORT int tageval_report_new(struct tageval_inventory *inv,
				      const struct tageval_key *key,
				      const struct tageval_key *train,
				      struct tageval_report **out, struct tageval_error *err);
TAGEVAL_EXPORT void tageval_report_free(struct tageval_report *report);

/**
 * Adds a subset @name from an instance list (lines "lexelt instance ...",
 * as for tageval_filter_read_instances(); repeats are ignored).  Before any
 * system or baseline (TAGEVAL_EINVAL).  Errors: an empty or taken name
 * (TAGEVAL_EINVAL), an instance the key lacks, a line without instance id,
 * a file without instances (TAGEVAL_EFORMAT, with file and line).
 */
TAGEVAL_EXPORT int tageval_report_add_subset(struct tageval_report *report, const char *name,
					     const char *path, struct tageval_error *err);
TAGEVAL_EXPORT int tageval_report_add_subset_buffer(struct tageval_report *report,
						    const char *name, const char *data,
						    size_t size, const char *source,
						    struct tageval_error *err);

/**
 * Scores the answer file @path ("-" = standard input) of a system called
 * @name with the rules of tageval_scorer_read() at every granularity, from
 * one read of the file (so a pipe or a named pipe will do).
 * Errors: an empty name or one already used by a system or baseline
 * (TAGEVAL_EINVAL), the scorer's; after an error the system is not added.
 */
TAGEVAL_EXPORT int tageval_report_add_system(struct tageval_report *report, const char *name,
					     const char *path, struct tageval_error *err);
TAGEVAL_EXPORT int tageval_report_add_system_buffer(struct tageval_report *report,
						    const char *name, const char *data,
						    size_t size, const char *source,
						    struct tageval_error *err);

/**
 * Adds a baseline, named tageval_baseline_name(@which), whose answers are
 * given to the scorer with tageval_scorer_add() (one unweighted answer per
 * test instance, or none where it abstains), so that it is scored exactly
 * as a system: random and random-main abstain on a lexelt without senses,
 * commonest where the lexelt has no single-tag training instance.  The
 * commonest baseline needs a training key (TAGEVAL_EINVAL).
 */
TAGEVAL_EXPORT int tageval_report_add_baseline(struct tageval_report *report,
					       enum tageval_baseline which,
					       struct tageval_error *err);

/** Granularities scored: fine, then mixed and coarse when there is a sense map. */
TAGEVAL_EXPORT size_t tageval_report_granularities(const struct tageval_report *report);
TAGEVAL_EXPORT enum tageval_granularity
tageval_report_granularity(const struct tageval_report *report, size_t i);

/** Systems and baselines, in the order they were added. */
TAGEVAL_EXPORT size_t tageval_report_systems(const struct tageval_report *report);
TAGEVAL_EXPORT const char *tageval_report_system_name(const struct tageval_report *report,
						      size_t i);
/** 1 when system @i is a baseline, else 0. */
TAGEVAL_EXPORT int tageval_report_system_is_baseline(const struct tageval_report *report,
						     size_t i);
/** The scorer's totals of system @i at granularity index @g (answer counts included). */
TAGEVAL_EXPORT int tageval_report_system_score(const struct tageval_report *report, size_t i,
					       size_t g, struct tageval_score *out);

TAGEVAL_EXPORT size_t tageval_report_subsets(const struct tageval_report *report);
TAGEVAL_EXPORT const struct tageval_report_subset *
tageval_report_subset(const struct tageval_report *report, size_t i);
/** TAGEVAL_OK and *i, or TAGEVAL_ENOTFOUND. */
TAGEVAL_EXPORT int tageval_report_find_subset(const struct tageval_report *report,
					      const char *name, size_t *i);

/** Lexelts of the test key, in bytewise order of their names. */
TAGEVAL_EXPORT size_t tageval_report_lexelts(const struct tageval_report *report);
TAGEVAL_EXPORT const struct tageval_report_lexelt *
tageval_report_lexelt(const struct tageval_report *report, size_t i);

/** The medians of the lexelts' polysemy and fine entropy that split the subsets. */
TAGEVAL_EXPORT void tageval_report_medians(const struct tageval_report *report,
					   double *polysemy, double *entropy);

/** The figures of system @system on subset @subset, granularity index @g. */
TAGEVAL_EXPORT int tageval_report_cell(const struct tageval_report *report, size_t subset,
				       size_t system, size_t g, int minimal,
				       struct tageval_report_cell *out);
TAGEVAL_EXPORT int tageval_report_summarize(const struct tageval_report *report,
					    size_t subset, size_t g, int minimal,
					    struct tageval_report_summary *out);

/**
 * Keeps each system's credit and attempted mass per test instance (8 bytes
 * x 2 x granularities x instances per system), for
 * tageval_report_credits().  Before any system or baseline (TAGEVAL_EINVAL).
 */
TAGEVAL_EXPORT int tageval_report_keep_credits(struct tageval_report *report,
					       struct tageval_error *err);
/**
 * System @system's credit and attempted mass on each test instance at
 * granularity index @g, the instances in bytewise order of their
 * "lexelt instance" ids, so that the order of the key's lines changes
 * nothing (the "all" subset's @items elements each): the score and mass the scorer adds to its
 * totals for the instance's answer (struct tageval_answer_event), 0 and 0
 * where it has none; summed they give the cell of subset "all".  Needs
 * tageval_report_keep_credits() (TAGEVAL_EINVAL).
 */
TAGEVAL_EXPORT int tageval_report_credits(const struct tageval_report *report, size_t system,
					  size_t g, double *credit, double *attempted,
					  struct tageval_error *err);

#ifdef __cplusplus
}
#endif

#endif /* TAGEVAL_H */
