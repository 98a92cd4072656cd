/*
 * Policy iteration for a model of up to a few thousand states, in one call.
 *
 * On a course's board (15 to a few hundred states) a policy's arithmetic is a few thousand
 * multiply-adds; what numpy and scipy spend around it (a microsecond or more a call, dozens
 * of calls a policy) is most of a solve. Here the whole of policy iteration runs in C on the
 * model's own arrays: the numbering of the states, the start, each policy's exact
 * evaluation, each improvement and the final choice of the optimal pairs. The Python side
 * (_solver.py, _kernel_solution) makes the output arrays and the Solution; where this
 * declines (a model it does not take, a numerical failure, a hopeless state, too many
 * policies) the numpy path solves the model as it always did, and raises what it raises.
 *
 * Everything is signed for minimisation, as in _solver.py, and the rules are its own: the
 * start is a given policy where it fits and is proper, else the greedy policy of value
 * iteration from 0 where that is proper, else a policy stepping toward the goal; past 64
 * states each of the first three improvements is the greedy policy after up to 12 more
 * sweeps from the last policy's values, where that is proper (_solver._swept); a state
 * keeps its pair unless another is better by more than 1e-12 (relative above 1), so ties
 * cannot make the iteration cycle; the solution's policy is each state's first pair within
 * the tie tolerance of the best.
 *
 * The numbering. The live states are numbered each after every state it moves to, peeled
 * from the terminal states back (number_states), but for a few put last, B, which break
 * every loop: on a board, from the goal back to the start, with B its chute tails (moves
 * onto a chute's head lead back to them), so that every other move leads to a state
 * numbered before its own. Call the rest N.
 *
 * A policy's values. With B last, I - gamma P (over the live states) is
 *     [A_NN A_NB]
 *     [A_BN A_BB]   with A_NN lower triangular,
 * so one forward substitution gives z = A_NN^-1 b_N and Z = A_NN^-1 A_NB (|B| + 1
 * right-hand sides), the Schur complement S = A_BB - A_BN Z is a |B| x |B| system, and
 * x_B = S^-1 (b_B - A_BN z), x_N = z - Z x_B. For a proper policy I - gamma P is a
 * nonsingular M-matrix, and so is S, whose LU factors without pivoting exist with positive
 * pivots. The cost is about the policy's outcomes times |B| (a few thousand operations on a
 * course's board), and B is that of the policy (the states its moves lead back to), often
 * fewer than the model's.
 *
 * Proper. Undiscounted, a policy must reach a terminal state from everywhere for its
 * system to have a solution. The same solve proves it, as _dense.py's does (see
 * evaluate); a policy it does not prove proper is not used. Discounted, every policy is
 * (but a state from which no terminal state can be reached is refused all the same).
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* What the call returns first: 0 solved, else why the numpy path takes over. */
enum {
    SOLVED = 0,
    DECLINED = 1,      /* a model this does not take (types, sizes, too many states in B) */
    HOPELESS = 2,      /* a state from which no policy reaches a terminal state */
    NOT_SETTLED = 3,   /* more policies than max_iterations */
    NUMERICAL = 4,     /* a pivot or value not finite and positive, a zero-cost loop */
    IMPROPER = 5       /* (within: a policy its own solve does not prove proper) */
};

/* At most this many sweeps of value iteration choose the start (_solver._LOOKAHEAD). */
#define LOOKAHEAD 32
#define SWEEPS 12
#define SWEPT_POLICIES 3
#define SWEEP_FROM 64

/* A policy whose B holds more states than this, or whose Z would hold more entries, is left
 * to the numpy path (its sparse LU orders against fill; here the cost grows with |B|: Z's
 * rows with |B| each, S's LU with |B|^3). On boards B is the chute tails, at most 190 on
 * the 4,096 states the kernel takes; random models' thousands, where the numpy path was 10
 * to 35 times faster, are declined. At 4,000 squares Z holds 0.7 million entries, where
 * the kernel and the numpy path are about as fast (0.7x to 1.5x). */
#define MOST_BACK 512
#define MOST_Z (1 << 20)
/* A policy expected to take more moves than this (in discounted moves, under a discount) is
 * left to the numpy path too (evaluate: conditioning). A course's boards take hundreds. */
#define MOST_MOVES 1e6

typedef struct {
    Py_ssize_t n, pairs, nnz;
    int32_t *ps;      /* n + 1: the pairs of state s are ps[s] .. ps[s + 1] - 1 */
    int32_t *ip;      /* pairs + 1: the outcomes of pair p are ip[p] .. ip[p + 1] - 1 */
    int32_t *ix;      /* nnz: the state each outcome leads to */
    double *pr;       /* nnz: its probability */
    double *oc;       /* nnz: its cost */
    double *gpr;      /* nnz: its probability times the discount */
    double *cost;     /* pairs: the signed expected cost */
    double *tv;       /* n: the signed terminal values, 0 on live states */
    double gamma;
    Py_ssize_t m;     /* live states */
    int32_t *order;   /* m: the live states in order (number_states) */
    int32_t *pos;     /* n: a live state's place in order, -1 on a terminal state */
    /* scratch */
    int32_t *dist;    /* n: moves to a terminal state (toward_goal) */
    int32_t *queue;   /* n: the search's queue, the numbering's ready states */
    int32_t *rstart;  /* n + 1: the moves reversed, by where they lead */
    int32_t *rsrc;    /* nnz */
    char *seen;       /* n */
    int32_t *count;   /* n: open successors, while numbering */
    int32_t *frontier;/* n: states with some successors numbered, while numbering */
    char *listed;     /* n: on the frontier */
    int32_t *bfirst;  /* n: the states put in B, while numbering */
    int32_t *score;   /* n: how many frontier states wait for a state alone (0 between) */
    Py_ssize_t fronts;
} Model;

/* What one policy's solve works in: B's states and their place in B, and the dense arrays
 * of the block solve (grown as a policy needs). */
typedef struct {
    int32_t *back;    /* n: a state's place in B, -1 if in N */
    int32_t *row;     /* n: an N state's row in Z */
    int32_t *bstates; /* m: B's states, in order */
    double *z, *y;    /* n */
    double *r1, *x1;  /* n */
    double *Z;        /* rows x |B| */
    double *S;        /* |B| x |B| */
    double *r;        /* |B| */
    size_t zcap, scap;
} Block;

/* -- reading the arguments ------------------------------------------------------------ */

/* A one-dimensional numpy array read in place: where its elements lie, and their kind ('i'
 * a signed integer, 'f' a float, 'b' a bool) and size. numpy's own accessors are a tenth of
 * the buffer protocol's cost, which on a course's board is a fair share of a solve. */
typedef struct {
    const char *data;
    Py_ssize_t length, stride, itemsize;
} View;

/* ``obj`` as a View of ``length`` elements (any, if negative) of kind ``kind``: 0 if it is
 * one, 1 if it is an array of another kind, shape, length, byte order or alignment (the
 * model is declined, or the hint passed over), -1 with a TypeError set if it is not a
 * numpy array at all. */
static int view_of(PyObject *obj, View *v, char kind, Py_ssize_t length)
{
    if (!PyArray_Check(obj)) {
        PyErr_SetString(PyExc_TypeError, "the kernel takes numpy arrays");
        return -1;
    }
    PyArrayObject *array = (PyArrayObject *)obj;
    if (PyArray_NDIM(array) != 1 || !PyArray_ISNOTSWAPPED(array) || !PyArray_ISALIGNED(array)
        || PyArray_DESCR(array)->kind != kind) {
        return 1;
    }
    v->data = PyArray_BYTES(array);
    v->length = PyArray_DIM(array, 0);
    v->stride = PyArray_STRIDE(array, 0);
    v->itemsize = PyArray_ITEMSIZE(array);
    if (length >= 0 && v->length != length) {
        return 1;
    }
    switch (kind) {
    case 'f':
        return v->itemsize != 4 && v->itemsize != 8;
    case 'i':
        return v->itemsize != 1 && v->itemsize != 2 && v->itemsize != 4 && v->itemsize != 8;
    default:
        return v->itemsize != 1;
    }
}

static int64_t int_at(const View *v, Py_ssize_t k)
{
    const char *p = v->data + k * v->stride;
    switch (v->itemsize) {
    case 1: return *(const int8_t *)p;
    case 2: return *(const int16_t *)p;
    case 4: return *(const int32_t *)p;
    default: return *(const int64_t *)p;
    }
}

static double float_at(const View *v, Py_ssize_t k)
{
    const char *p = v->data + k * v->stride;
    if (v->itemsize == 4) {
        return (double)*(const float *)p;
    }
    return *(const double *)p;
}

/* Copies integers into ``out`` as int32, each within [low, high]; 0 if all are. */
static int copy_ints(const View *v, int32_t *out, int64_t low, int64_t high)
{
    Py_ssize_t n = v->length;
    int bad = 0;
    if (v->itemsize == 4 && v->stride == 4) { /* (the usual: a loop the compiler unrolls) */
        const int32_t *p = (const int32_t *)v->data;
        for (Py_ssize_t k = 0; k < n; k++) {
            bad |= p[k] < low || p[k] > high;
            out[k] = p[k];
        }
        return bad;
    }
    if (v->itemsize == 8 && v->stride == 8) {
        const int64_t *p = (const int64_t *)v->data;
        for (Py_ssize_t k = 0; k < n; k++) {
            bad |= p[k] < low || p[k] > high;
            out[k] = (int32_t)p[k];
        }
        return bad;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        int64_t x = int_at(v, k);
        bad |= x < low || x > high;
        out[k] = (int32_t)x;
    }
    return bad;
}

/* Copies floats into ``out``; 0 if every value is finite. */
static int copy_floats(const View *v, double *out)
{
    Py_ssize_t n = v->length;
    if (v->itemsize == 8 && v->stride == 8) {
        memcpy(out, v->data, (size_t)n * sizeof(double));
    } else if (v->stride == 0) { /* (one value broadcast: classic's cost of 1 a turn) */
        double x = n > 0 ? float_at(v, 0) : 0.0;
        for (Py_ssize_t k = 0; k < n; k++) {
            out[k] = x;
        }
    } else if (v->itemsize == 4 && v->stride == 4) {
        const float *p = (const float *)v->data;
        for (Py_ssize_t k = 0; k < n; k++) {
            out[k] = (double)p[k];
        }
    } else {
        for (Py_ssize_t k = 0; k < n; k++) {
            out[k] = float_at(v, k);
        }
    }
    int bad = 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        bad |= !isfinite(out[k]);
    }
    return bad;
}

/* -- the model ------------------------------------------------------------------------ */

static int is_live(const Model *M, int32_t s)
{
    return M->ps[s + 1] > M->ps[s];
}

/* Releases a state just numbered or put in B: each open state moving to it has one open
 * successor fewer, and is ready once it has none (else it joins the frontier). */
static void release(Model *M, int32_t x, int32_t *ready, Py_ssize_t *top)
{
    for (int32_t e = M->rstart[x]; e < M->rstart[x + 1]; e++) {
        int32_t u = M->rsrc[e];
        if (M->seen[u] != 0) {
            continue;
        }
        if (--M->count[u] == 0) {
            ready[(*top)++] = u;
        } else if (!M->listed[u]) {
            M->listed[u] = 1;
            M->frontier[M->fronts++] = u;
        }
    }
}

/* Puts open state t in B. */
static void put_back(Model *M, int32_t t, int32_t *ready, Py_ssize_t *top, Py_ssize_t *backs)
{
    M->seen[t] = 2;
    M->bfirst[(*backs)++] = t;
    release(M, t, ready, top);
}

/* The one open successor of open state v, whose count is 1 (so there is one). */
static int32_t open_successor(const Model *M, int32_t v)
{
    for (int32_t k = M->ip[M->ps[v]]; k < M->ip[M->ps[v + 1]]; k++) {
        int32_t t = M->ix[k];
        if (t != v && M->seen[t] == 0 && is_live(M, t)) {
            return t;
        }
    }
    return -1;
}

/* Numbers the live states (M->order, M->pos) each after every state it moves to (N), but
 * for a few put last (B), which break every loop. Peeling from the terminal states, a
 * state is numbered once its successors are; where none is ready (a loop), the open state
 * that the most frontier states wait for alone goes to B (on a board, a chute's tail,
 * which the squares before the chute's head wait for). So on a board the states run from
 * the goal back to the start, and B is the chute tails. Returns how many are in B, or -1
 * past ``most_back``. */
static Py_ssize_t number_states(Model *M, Py_ssize_t most_back)
{
    int32_t n = (int32_t)M->n;
    int32_t *rstart = M->rstart, *ready = M->queue, *count = M->count, *score = M->score;
    memset(rstart, 0, ((size_t)n + 1) * sizeof(int32_t));
    memset(M->listed, 0, (size_t)M->n);
    M->fronts = 0;
    /* The moves between live states reversed (by where they lead), each state's loops to
     * itself left out: those are the diagonal. States next to a terminal state start the
     * frontier. */
    for (int32_t s = 0; s < n; s++) {
        count[s] = 0;
        score[s] = 0;
        int ends = 0;
        for (int32_t k = M->ip[M->ps[s]]; k < M->ip[M->ps[s + 1]]; k++) {
            int32_t t = M->ix[k];
            if (!is_live(M, t)) {
                ends = 1;
            } else if (t != s) {
                rstart[t + 1]++;
                count[s]++;
            }
        }
        if (ends && count[s] > 0) {
            M->listed[s] = 1;
            M->frontier[M->fronts++] = s;
        }
    }
    for (int32_t t = 0; t < n; t++) {
        rstart[t + 1] += rstart[t];
    }
    int32_t *cursor = M->dist; /* (free until toward_goal) */
    for (int32_t t = 0; t < n; t++) {
        cursor[t] = rstart[t];
    }
    for (int32_t s = 0; s < n; s++) {
        for (int32_t k = M->ip[M->ps[s]]; k < M->ip[M->ps[s + 1]]; k++) {
            int32_t t = M->ix[k];
            if (t != s && is_live(M, t)) {
                M->rsrc[cursor[t]++] = s;
            }
        }
    }
    Py_ssize_t top = 0, placed = 0, backs = 0;
    int32_t scan = n - 1;
    memset(M->seen, 0, (size_t)M->n);
    for (int32_t s = 0; s < n; s++) {
        M->pos[s] = -1;
        if (is_live(M, s) && count[s] == 0) {
            ready[top++] = s;
        }
    }
    while (placed + backs < M->m) {
        if (top > 0) {
            int32_t s = ready[--top];
            if (M->seen[s] != 0) {
                continue;
            }
            M->seen[s] = 1;
            M->pos[s] = (int32_t)placed;
            M->order[placed++] = s;
            release(M, s, ready, &top);
            continue;
        }
        if (backs >= most_back) {
            return -1;
        }
        /* A loop. The open state most frontier states wait for alone goes to B (ties: the
         * higher number, nearer the goal on a board); the frontier is kept to its open
         * states on the way. */
        Py_ssize_t kept = 0;
        int32_t pick = -1, fewest = -1;
        for (Py_ssize_t f = 0; f < M->fronts; f++) {
            int32_t v = M->frontier[f];
            if (M->seen[v] != 0) {
                continue;
            }
            M->frontier[kept++] = v;
            if (count[v] != 1) {
                if (fewest < 0 || count[v] < count[fewest]) {
                    fewest = v;
                }
                continue;
            }
            int32_t t = open_successor(M, v);
            score[t]++;
            if (pick < 0 || score[t] > score[pick] || (score[t] == score[pick] && t > pick)) {
                pick = t;
            }
        }
        M->fronts = kept;
        for (Py_ssize_t f = 0; f < kept; f++) { /* (the scores back to 0) */
            int32_t v = M->frontier[f];
            if (count[v] == 1) {
                score[open_successor(M, v)] = 0;
            }
        }
        if (pick >= 0) {
            put_back(M, pick, ready, &top, &backs);
            continue;
        }
        /* No frontier state waits for one state alone: the one waiting for fewest has them
         * all put in B (with no frontier, the last open state, by the states' own numbers). */
        int32_t u = fewest;
        for (; u < 0 && scan >= 0; scan--) { /* (every state above scan is numbered) */
            if (M->seen[scan] == 0 && is_live(M, scan)) {
                u = scan;
            }
        }
        if (u < 0) {
            return -1; /* (cannot be: an open live state is left) */
        }
        for (int32_t k = M->ip[M->ps[u]]; k < M->ip[M->ps[u + 1]]; k++) {
            int32_t t = M->ix[k];
            if (t != u && M->seen[t] == 0 && is_live(M, t)) {
                put_back(M, t, ready, &top, &backs);
            }
        }
    }
    for (Py_ssize_t j = 0; j < backs; j++) {
        M->pos[M->bfirst[j]] = (int32_t)(placed + j);
        M->order[placed + j] = M->bfirst[j];
    }
    return backs;
}

/* Breadth first from the terminal states over every move reversed; returns how many live
 * states were reached (those from which some policy reaches a terminal state). With
 * ``distances``, also each state's fewest moves to a terminal state (M->dist). */
static Py_ssize_t search(Model *M, int distances)
{
    int32_t n = (int32_t)M->n;
    int32_t *rstart = M->rstart, *rsrc = M->rsrc, *queue = M->queue;
    memset(rstart, 0, ((size_t)n + 1) * sizeof(int32_t));
    /* A counting sort of the moves by where they lead (rstart[t + 1] counts them first). */
    for (int32_t k = 0; k < M->nnz; k++) {
        rstart[M->ix[k] + 1]++;
    }
    for (int32_t t = 0; t < n; t++) {
        rstart[t + 1] += rstart[t];
        queue[t] = rstart[t]; /* (a cursor, before the queue is needed) */
    }
    for (int32_t s = 0; s < n; s++) {
        for (int32_t k = M->ip[M->ps[s]]; k < M->ip[M->ps[s + 1]]; k++) {
            rsrc[queue[M->ix[k]]++] = s;
        }
    }
    memset(M->seen, 0, (size_t)M->n);
    Py_ssize_t head = 0, tail = 0;
    for (int32_t s = 0; s < n; s++) {
        if (!is_live(M, s)) {
            M->seen[s] = 1;
            queue[tail++] = s;
            if (distances) {
                M->dist[s] = 0;
            }
        }
    }
    Py_ssize_t terminals = tail;
    while (head < tail) {
        int32_t t = queue[head++];
        for (int32_t e = rstart[t]; e < rstart[t + 1]; e++) {
            int32_t s = rsrc[e];
            if (!M->seen[s]) {
                M->seen[s] = 1;
                queue[tail++] = s;
                if (distances) {
                    M->dist[s] = M->dist[t] + 1;
                }
            }
        }
    }
    return tail - terminals;
}

/* One state's Q-values for the values V (into Q where given); returns the smallest, and
 * the first pair that has it in ``pick``. */
static double choose(const Model *M, int32_t s, const double *V, double *Q, int32_t *pick)
{
    int32_t first = M->ps[s], end = M->ps[s + 1];
    const int32_t *ix = M->ix, *ip = M->ip;
    const double *gpr = M->gpr;
    /* The first of the smallest, without a branch per pair (which the sweeps' values would
     * mispredict half the time); a NaN is never the smallest. */
    double least = INFINITY;
    int32_t at = first;
    for (int32_t p = end - 1; p >= first; p--) {
        double q = M->cost[p];
        for (int32_t k = ip[p]; k < ip[p + 1]; k++) {
            q += gpr[k] * V[ix[k]];
        }
        if (Q != NULL) {
            Q[p] = q;
        }
        int lower = q <= least;
        least = lower ? q : least;
        at = lower ? p : at;
    }
    *pick = at;
    return least;
}

/* The greedy policy of value iteration from 0, swept in place in the states' order until a
 * sweep leaves it as it was (at most LOOKAHEAD sweeps): near the optimum, where each
 * state's first pair would need more policies or not be proper (efron's blue die runs
 * into a chute and back). */
static void lookahead(const Model *M, double *V, int32_t *policy)
{
    for (Py_ssize_t i = 0; i < M->m; i++) {
        V[M->order[i]] = 0.0;
        policy[M->order[i]] = -1;
    }
    for (int sweep = 0; sweep < LOOKAHEAD; sweep++) {
        Py_ssize_t changed = 0;
        for (Py_ssize_t i = 0; i < M->m; i++) {
            int32_t s = M->order[i], pick;
            V[s] = choose(M, s, V, NULL, &pick);
            if (policy[s] != pick) {
                policy[s] = pick;
                changed++;
            }
        }
        if (changed == 0) {
            break;
        }
    }
}

/* Each live state's first pair with an outcome one move closer to a terminal state
 * (M->dist): proper, since from everywhere one is then reached with positive probability. */
static void toward_goal(const Model *M, int32_t *policy)
{
    for (Py_ssize_t i = 0; i < M->m; i++) {
        int32_t s = M->order[i];
        int32_t pick = -1;
        for (int32_t p = M->ps[s]; p < M->ps[s + 1] && pick < 0; p++) {
            for (int32_t k = M->ip[p]; k < M->ip[p + 1]; k++) {
                if (M->dist[M->ix[k]] == M->dist[s] - 1) {
                    pick = p;
                    break;
                }
            }
        }
        policy[s] = pick >= 0 ? pick : M->ps[s];
    }
}

/* -- one policy's values -------------------------------------------------------------- */

static int grow(double **array, size_t *cap, size_t need)
{
    if (need <= *cap) {
        return 0;
    }
    double *more = (double *)realloc(*array, need * sizeof(double));
    if (more == NULL) {
        return 1;
    }
    *array = more;
    *cap = need;
    return 0;
}

/* The values of ``policy`` into V, by the block solve described at the top; where
 * ``prove`` (gamma 1), also the proof that the policy is proper, or IMPROPER.
 *
 * The proof is _dense.py's (DenseModel.evaluate_if_proper): the same solve finds
 * x = (I - P)^-1 1, the expected moves before the policy ends; if x > 0 and (I - P) x > 0
 * beyond any rounding, the Z-matrix I - P is a nonsingular M-matrix, so P^k -> 0 and from
 * every state the policy ends with probability 1 (Berman and Plemmons, Nonnegative
 * Matrices in the Mathematical Sciences, 6.2.3, I27). How x was found does not matter to
 * the proof (an improper policy's solve may give anything): only the check of (I - P) x,
 * made from P itself, does. */
static int evaluate(const Model *M, Block *K, const int32_t *policy, double *V, int prove)
{
    Py_ssize_t m = M->m;
    const int32_t *order = M->order, *pos = M->pos, *ix = M->ix;
    const double *pr = M->pr, gamma = M->gamma;
    int32_t *back = K->back, *row = K->row;
    /* B: the states a move of the policy leads to that are numbered after the mover. */
    for (Py_ssize_t i = 0; i < m; i++) {
        back[order[i]] = -1;
    }
    for (Py_ssize_t i = 0; i < m; i++) {
        int32_t p = policy[order[i]];
        for (int32_t k = M->ip[p]; k < M->ip[p + 1]; k++) {
            if (pos[ix[k]] > i) {
                back[ix[k]] = -2;
            }
        }
    }
    Py_ssize_t nb = 0, rows = 0;
    for (Py_ssize_t i = 0; i < m; i++) {
        int32_t s = order[i];
        if (back[s] == -2) {
            back[s] = (int32_t)nb;
            K->bstates[nb++] = s;
        } else {
            row[s] = (int32_t)rows++;
        }
    }
    if (nb > MOST_BACK || (size_t)rows * (size_t)nb > MOST_Z) {
        return DECLINED;
    }
    if (grow(&K->Z, &K->zcap, (size_t)rows * (size_t)nb + 1)
        || grow(&K->S, &K->scap, (size_t)nb * (size_t)nb + 1)) {
        return DECLINED;
    }
    /* z and Z as at the top; y, r1 and x1 the same for the right-hand side of ones. */
    double *z = K->z, *y = K->y, *Z = K->Z, *S = K->S, *r = K->r, *r1 = K->r1, *x1 = K->x1;
    /* N, in order: every move to another N state leads to one solved already. */
    for (Py_ssize_t i = 0; i < m; i++) {
        int32_t s = order[i];
        if (back[s] >= 0) {
            continue;
        }
        int32_t p = policy[s];
        double d = 1.0, b = M->cost[p], c = 1.0;
        double *w = Z + (size_t)row[s] * (size_t)nb;
        memset(w, 0, (size_t)nb * sizeof(double));
        for (int32_t k = M->ip[p]; k < M->ip[p + 1]; k++) {
            int32_t t = ix[k];
            double g = gamma * pr[k];
            if (pos[t] < 0) {
                b += g * M->tv[t];
            } else if (t == s) {
                d -= g;
            } else if (back[t] >= 0) {
                w[back[t]] += g;
            } else {
                b += g * z[t];
                c += g * y[t];
                const double *u = Z + (size_t)row[t] * (size_t)nb;
                for (Py_ssize_t j = 0; j < nb; j++) {
                    w[j] += g * u[j];
                }
            }
        }
        if (!(d > 0.0)) {
            return prove ? IMPROPER : NUMERICAL; /* (a state that surely stays put) */
        }
        double inverse = 1.0 / d;
        z[s] = b * inverse;
        y[s] = c * inverse;
        for (Py_ssize_t j = 0; j < nb; j++) {
            w[j] *= inverse;
        }
    }
    if (nb > 0) {
        /* S and its right-hand sides, row by row. */
        memset(S, 0, (size_t)nb * (size_t)nb * sizeof(double));
        for (Py_ssize_t j = 0; j < nb; j++) {
            int32_t s = K->bstates[j];
            int32_t p = policy[s];
            double *sj = S + (size_t)j * (size_t)nb;
            double b = M->cost[p], c = 1.0;
            sj[j] += 1.0;
            for (int32_t k = M->ip[p]; k < M->ip[p + 1]; k++) {
                int32_t t = ix[k];
                double g = gamma * pr[k];
                if (pos[t] < 0) {
                    b += g * M->tv[t];
                } else if (back[t] >= 0) {
                    sj[back[t]] -= g;
                } else {
                    b += g * z[t];
                    c += g * y[t];
                    const double *u = Z + (size_t)row[t] * (size_t)nb;
                    for (Py_ssize_t col = 0; col < nb; col++) {
                        sj[col] -= g * u[col];
                    }
                }
            }
            r[j] = b;
            r1[j] = c;
        }
        /* S's LU without pivoting (for a proper policy an M-matrix: positive pivots). */
        for (Py_ssize_t k = 0; k < nb; k++) {
            double *sk = S + (size_t)k * (size_t)nb;
            double pivot = sk[k];
            if (!(pivot > 0.0) || !isfinite(pivot)) {
                return prove ? IMPROPER : NUMERICAL;
            }
            for (Py_ssize_t i = k + 1; i < nb; i++) {
                double *si = S + (size_t)i * (size_t)nb;
                double l = si[k] / pivot;
                if (l == 0.0) {
                    continue;
                }
                for (Py_ssize_t col = k + 1; col < nb; col++) {
                    si[col] -= l * sk[col];
                }
                r[i] -= l * r[k];
                r1[i] -= l * r1[k];
            }
        }
        for (Py_ssize_t k = nb - 1; k >= 0; k--) {
            const double *sk = S + (size_t)k * (size_t)nb;
            double sum = r[k], sum1 = r1[k];
            for (Py_ssize_t col = k + 1; col < nb; col++) {
                sum -= sk[col] * r[col];
                sum1 -= sk[col] * r1[col];
            }
            r[k] = sum / sk[k]; /* (from k on, r and r1 hold x_B) */
            r1[k] = sum1 / sk[k];
            V[K->bstates[k]] = r[k];
            x1[K->bstates[k]] = r1[k];
        }
    }
    int finite = 1;
    for (Py_ssize_t i = 0; i < m; i++) {
        int32_t s = order[i];
        if (back[s] < 0) {
            const double *w = Z + (size_t)row[s] * (size_t)nb;
            double x = z[s], e = y[s];
            for (Py_ssize_t j = 0; j < nb; j++) {
                x += w[j] * r[j];
                e += w[j] * r1[j];
            }
            V[s] = x;
            x1[s] = e;
        }
        finite &= isfinite(V[s]);
    }
    if (!finite) {
        return prove ? IMPROPER : NUMERICAL;
    }
    /* x1's largest entry is (I - P)^-1's largest row sum: past MOST_MOVES the system is too
     * ill-conditioned for a solve without pivoting to hold the answers to 1e-9. Such a
     * start is passed over as unproven (an improper one's solve gives huge moves, not
     * always negative ones); a policy on the way leaves the model to the numpy path's
     * pivoted sparse LU. */
    for (Py_ssize_t i = 0; i < m; i++) {
        double e = x1[order[i]];
        if (!(e <= MOST_MOVES)) { /* (NaN and infinity too) */
            return prove ? IMPROPER : NUMERICAL;
        }
        if (prove && !(e > 0.0)) {
            return IMPROPER;
        }
    }
    if (!prove) {
        return SOLVED;
    }
    /* The proof, row by row: x_s minus a sum of k products, made in floating point, is off
     * by at most (k + 1) eps / 2 times x_s plus the products' sum (Higham, Accuracy and
     * Stability of Numerical Algorithms, 3.1), doubled to be safe. The bound counts the
     * row's own outcomes, not the states: a model may list one successor many times (at
     * different costs), and no bound on a row's sum is assumed. */
    for (Py_ssize_t i = 0; i < m; i++) {
        int32_t s = order[i];
        int32_t p = policy[s];
        double product = x1[s], mass = x1[s], terms = 1.0;
        for (int32_t k = M->ip[p]; k < M->ip[p + 1]; k++) {
            if (pos[ix[k]] >= 0) {
                double term = pr[k] * x1[ix[k]];
                product -= term;
                mass += term;
                terms += 1.0;
            }
        }
        double slack = (terms + 2.0) * 2.220446049250313e-16 * mass;
        if (!(product > slack)) {
            return IMPROPER;
        }
    }
    return SOLVED;
}

/* -- the call ------------------------------------------------------------------------- */

static double near(double best, double tolerance)
{
    return best + tolerance * fmax(1.0, fabs(best));
}

/* The whole solve, once the arguments are read (the GIL released): V, Q, best and policy
 * as the last policy leaves them. */
static int iterate(Model *M, Block *K, int32_t *policy, int32_t *trial, const int32_t *hint,
                   long max_iterations, double *V, double *Q, double *best, long *iterations)
{
    Py_ssize_t n = M->n, m = M->m;
    int prove = M->gamma == 1.0;
    if (number_states(M, MOST_BACK) < 0) {
        return DECLINED;
    }
    for (Py_ssize_t s = 0; s < n; s++) {
        V[s] = M->tv[s];
        policy[s] = -1;
    }
    int single = 1;
    for (Py_ssize_t i = 0; i < m && single; i++) {
        int32_t s = M->order[i];
        single = M->ps[s + 1] - M->ps[s] == 1;
    }
    /* (Discounted, every policy is proper, but a state that cannot reach the goal is
     * refused all the same, as the numpy path refuses it.) */
    if (!prove && search(M, 0) != m) {
        return HOPELESS;
    }
    int status;
    if (single) { /* the one policy there is: improper, some state cannot reach the goal */
        for (Py_ssize_t i = 0; i < m; i++) {
            policy[M->order[i]] = M->ps[M->order[i]];
        }
        status = evaluate(M, K, policy, V, prove);
        if (status == IMPROPER) {
            return HOPELESS;
        }
    } else {
        /* The start: the first of the hint, the lookahead's policy and a policy toward the
         * goal that its own solve proves proper. */
        status = IMPROPER;
        if (hint != NULL) {
            for (Py_ssize_t i = 0; i < m; i++) {
                policy[M->order[i]] = hint[M->order[i]];
            }
            status = evaluate(M, K, policy, V, prove);
        }
        if (status == IMPROPER) {
            lookahead(M, V, policy);
            status = evaluate(M, K, policy, V, prove);
        }
        if (status == IMPROPER) {
            if (search(M, 1) != m) {
                return HOPELESS;
            }
            toward_goal(M, policy);
            status = evaluate(M, K, policy, V, prove);
        }
    }
    long count = 1;
    for (;;) {
        if (status != SOLVED) {
            return status == IMPROPER ? NUMERICAL : status; /* (improper after all: rounding) */
        }
        Py_ssize_t changed = 0;
        for (Py_ssize_t i = 0; i < m; i++) {
            int32_t s = M->order[i], pick;
            best[s] = choose(M, s, V, Q, &pick);
            if (!single && !(Q[policy[s]] <= near(best[s], 1e-12))) {
                policy[s] = pick;
                changed++;
            }
        }
        if (changed == 0) {
            break;
        }
        if (count >= max_iterations) {
            return NOT_SETTLED;
        }
        count++;
        if (count <= 1 + SWEPT_POLICIES && m > SWEEP_FROM) {
            /* The greedy policy a few sweeps on, from this policy's values. */
            memcpy(trial, policy, (size_t)n * sizeof(int32_t));
            for (int sweep = 0; sweep < SWEEPS; sweep++) {
                Py_ssize_t moved = 0;
                for (Py_ssize_t i = 0; i < m; i++) {
                    int32_t s = M->order[i], pick;
                    double least = choose(M, s, V, Q, &pick);
                    if (!(Q[trial[s]] <= near(least, 1e-12))) {
                        trial[s] = pick;
                        moved++;
                    }
                    V[s] = least;
                }
                if (moved == 0) {
                    break;
                }
            }
            status = evaluate(M, K, trial, V, prove);
            if (status != IMPROPER) {
                memcpy(policy, trial, (size_t)n * sizeof(int32_t));
                continue;
            }
        }
        /* (An improvement of a proper policy is proper where every turn costs something;
         * proven all the same, a loop that costs nothing being left to the numpy path.) */
        status = evaluate(M, K, policy, V, prove);
    }
    *iterations = count;
    return SOLVED;
}

/* Places every scratch array in one block of memory: with ``base`` NULL only measures it. */
static size_t place(void **at, size_t bytes, char *base, size_t used)
{
    if (base != NULL) {
        *at = base + used;
    }
    return used + ((bytes + 15) & ~(size_t)15); /* (16-byte steps keep doubles aligned) */
}

typedef struct {
    double *Q, *V, *best;
    int32_t *policy, *trial, *hinted;
} Arrays;

static size_t layout(Model *M, Block *K, Arrays *A, char *base)
{
    size_t n = (size_t)M->n, pairs = (size_t)M->pairs, nnz = (size_t)M->nnz, u = 0;
    u = place((void **)&M->ps, (n + 1) * 4, base, u);
    u = place((void **)&M->rstart, (n + 1) * 4, base, u);
    u = place((void **)&M->ip, (pairs + 1) * 4, base, u);
    u = place((void **)&M->ix, nnz * 4, base, u);
    u = place((void **)&M->rsrc, nnz * 4, base, u);
    u = place((void **)&M->pr, nnz * 8, base, u);
    u = place((void **)&M->oc, nnz * 8, base, u);
    u = place((void **)&M->gpr, nnz * 8, base, u);
    u = place((void **)&M->cost, pairs * 8, base, u);
    u = place((void **)&M->tv, n * 8, base, u);
    u = place((void **)&M->order, n * 4, base, u);
    u = place((void **)&M->pos, n * 4, base, u);
    u = place((void **)&M->dist, n * 4, base, u);
    u = place((void **)&M->queue, n * 4, base, u);
    u = place((void **)&M->seen, n, base, u);
    u = place((void **)&M->count, n * 4, base, u);
    u = place((void **)&M->frontier, n * 4, base, u);
    u = place((void **)&M->listed, n, base, u);
    u = place((void **)&M->bfirst, n * 4, base, u);
    u = place((void **)&M->score, n * 4, base, u);
    u = place((void **)&K->back, n * 4, base, u);
    u = place((void **)&K->row, n * 4, base, u);
    u = place((void **)&K->bstates, n * 4, base, u);
    u = place((void **)&K->z, n * 8, base, u);
    u = place((void **)&K->y, n * 8, base, u);
    u = place((void **)&K->r1, n * 8, base, u);
    u = place((void **)&K->x1, n * 8, base, u);
    u = place((void **)&K->r, n * 8, base, u);
    u = place((void **)&A->Q, pairs * 8, base, u);
    u = place((void **)&A->V, n * 8, base, u);
    u = place((void **)&A->best, n * 8, base, u);
    u = place((void **)&A->policy, n * 4, base, u);
    u = place((void **)&A->trial, n * 4, base, u);
    u = place((void **)&A->hinted, n * 4, base, u);
    return u;
}

static PyObject *kernel_solve(PyObject *self, PyObject *args)
{
    PyObject *o_ps, *o_ip, *o_ix, *o_pr, *o_oc, *o_tv, *o_hint;
    double gamma, tie_tolerance;
    int maximize;
    long max_iterations;
    Py_ssize_t most_states;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOOOOdpdlnO", &o_ps, &o_ip, &o_ix, &o_pr, &o_oc, &o_tv,
                          &gamma, &maximize, &tie_tolerance, &max_iterations, &most_states,
                          &o_hint)) {
        return NULL;
    }
    View ps, ip, ix, pr, oc, tv, hint;
    int status = DECLINED, got = 0, hinted = 0;
    long iterations = 0;
    double residual = 0.0;
    char *memory = NULL;
    Model M = {0};
    Block K = {0};
    Arrays A = {0};
    PyObject *values = NULL, *q = NULL, *policy = NULL, *optimal = NULL, *result = NULL;
#define VIEW(obj, view, kind, length)                                                         \
    if ((got = view_of(obj, &view, kind, length)) != 0) {                                    \
        goto done;                                                                           \
    }
    VIEW(o_ps, ps, 'i', -1);
    Py_ssize_t n = ps.length - 1;
    if (n < 1 || n > most_states || n > INT32_MAX - 1) {
        goto done;
    }
    VIEW(o_ip, ip, 'i', -1);
    Py_ssize_t pairs = ip.length - 1;
    VIEW(o_ix, ix, 'i', -1);
    Py_ssize_t nnz = ix.length;
    VIEW(o_pr, pr, 'f', nnz);
    VIEW(o_oc, oc, 'f', nnz);
    VIEW(o_tv, tv, 'f', n);
    if (o_hint != Py_None) { /* (only ever a hint: one of another shape is passed over) */
        if ((got = view_of(o_hint, &hint, 'i', n)) < 0) {
            goto done;
        }
        hinted = got == 0;
        got = 0;
    }
#undef VIEW
    /* (The policy is numbered in the type of the model's own indices.) */
    int index_type = ix.itemsize == 8 ? NPY_INT64 : NPY_INT32;
    if (pairs < 1 || nnz < 1 || pairs > INT32_MAX - 1 || nnz > INT32_MAX - 1
        || !(gamma > 0.0 && gamma <= 1.0) || !(tie_tolerance >= 0.0)) {
        goto done;
    }
    M.n = n;
    M.pairs = pairs;
    M.nnz = nnz;
    memory = (char *)malloc(layout(&M, &K, &A, NULL));
    if (memory == NULL) {
        PyErr_NoMemory();
        got = -1;
        goto done;
    }
    layout(&M, &K, &A, memory);

    /* The model's arrays, checked: every index within its range, pairs and outcomes in
     * order (a mistake would be memory out of bounds, not a wrong answer). */
    if (copy_ints(&ps, M.ps, 0, pairs) || M.ps[0] != 0 || M.ps[n] != pairs
        || copy_ints(&ip, M.ip, 0, nnz) || M.ip[0] != 0 || M.ip[pairs] != nnz
        || copy_ints(&ix, M.ix, 0, n - 1)) {
        goto done;
    }
    for (Py_ssize_t s = 0; s < n; s++) {
        if (M.ps[s + 1] < M.ps[s]) {
            goto done;
        }
    }
    for (Py_ssize_t p = 0; p < pairs; p++) {
        if (M.ip[p + 1] <= M.ip[p]) {
            goto done; /* (a pair with no outcome: no model here has one) */
        }
    }
    M.gamma = gamma;
    double sign = maximize ? -1.0 : 1.0;
    if (copy_floats(&pr, M.pr) || copy_floats(&oc, M.oc)) {
        goto done;
    }
    int outside = 0;
    for (Py_ssize_t k = 0; k < nnz; k++) {
        outside |= !(M.pr[k] >= 0.0 && M.pr[k] <= 1.0);
    }
    if (outside) {
        goto done;
    }
    for (Py_ssize_t p = 0; p < pairs; p++) {
        double sum = 0.0;
        for (int32_t k = M.ip[p]; k < M.ip[p + 1]; k++) {
            sum += M.pr[k] * M.oc[k];
            M.gpr[k] = gamma * M.pr[k];
        }
        M.cost[p] = sign * sum;
    }
    M.m = 0;
    for (Py_ssize_t s = 0; s < n; s++) {
        M.tv[s] = 0.0;
        if (M.ps[s + 1] > M.ps[s]) {
            M.m++;
        } else {
            double t = sign * float_at(&tv, s);
            if (!isfinite(t)) {
                goto done;
            }
            M.tv[s] = t;
        }
    }
    if (M.m == n) {
        goto done; /* (no terminal state: nothing ends, the numpy path says so) */
    }
    const int32_t *start = NULL;
    if (hinted) {
        start = A.hinted;
        for (Py_ssize_t s = 0; s < n && start; s++) {
            int64_t h = int_at(&hint, s);
            int fits = M.ps[s + 1] > M.ps[s] ? (h >= M.ps[s] && h < M.ps[s + 1]) : h == -1;
            if (fits) {
                A.hinted[s] = (int32_t)h;
            } else {
                start = NULL; /* (only ever a hint: one that does not fit is passed over) */
            }
        }
    }
    Py_BEGIN_ALLOW_THREADS
    status = iterate(&M, &K, A.policy, A.trial, start, max_iterations, A.V, A.Q, A.best,
                     &iterations);
    Py_END_ALLOW_THREADS
    if (status != SOLVED) {
        goto done;
    }
    /* The solution, as _solver._finish gives it. */
    npy_intp nd = (npy_intp)n, pd = (npy_intp)pairs;
    values = PyArray_SimpleNew(1, &nd, NPY_DOUBLE);
    q = PyArray_SimpleNew(1, &pd, NPY_DOUBLE);
    policy = PyArray_SimpleNew(1, &nd, index_type);
    optimal = PyArray_SimpleNew(1, &pd, NPY_BOOL);
    if (values == NULL || q == NULL || policy == NULL || optimal == NULL) {
        got = -1;
        goto done;
    }
    double *out_v = (double *)PyArray_DATA((PyArrayObject *)values);
    double *out_q = (double *)PyArray_DATA((PyArrayObject *)q);
    char *out_optimal = (char *)PyArray_DATA((PyArrayObject *)optimal);
    void *out_policy = PyArray_DATA((PyArrayObject *)policy);
    for (Py_ssize_t p = 0; p < pairs; p++) {
        out_q[p] = sign * A.Q[p];
    }
    for (Py_ssize_t s = 0; s < n; s++) {
        int64_t chosen = -1;
        if (M.ps[s + 1] > M.ps[s]) {
            out_v[s] = sign * A.V[s];
            double bound = near(A.best[s], tie_tolerance);
            for (int32_t p = M.ps[s]; p < M.ps[s + 1]; p++) {
                int in = A.Q[p] <= bound;
                out_optimal[p] = (char)in;
                if (in && chosen < 0) {
                    chosen = p;
                }
            }
            double gap = fabs(A.best[s] - A.V[s]);
            if (!(gap <= residual)) {
                residual = gap;
            }
        } else {
            out_v[s] = float_at(&tv, s);
        }
        if (index_type == NPY_INT32) {
            ((int32_t *)out_policy)[s] = (int32_t)chosen;
        } else {
            ((int64_t *)out_policy)[s] = chosen;
        }
    }
    result = Py_BuildValue("ildNNNN", status, iterations, residual, values, q, policy, optimal);
    values = q = policy = optimal = NULL; /* (the result holds them now, or let them go) */
    if (result == NULL) {
        got = -1;
    }
done:
    free(memory);
    free(K.Z);
    free(K.S);
    Py_XDECREF(values);
    Py_XDECREF(q);
    Py_XDECREF(policy);
    Py_XDECREF(optimal);
    if (got < 0) {
        Py_XDECREF(result);
        return NULL;
    }
    if (result == NULL) {
        result = Py_BuildValue("ildOOOO", status, iterations, residual, Py_None, Py_None,
                               Py_None, Py_None);
    }
    return result;
}

static PyMethodDef methods[] = {
    {"solve", kernel_solve, METH_VARARGS,
     "solve(pair_start, indptr, indices, data, outcome_cost, terminal_value, discount, "
     "maximize, tie_tolerance, max_iterations, most_states, hint) -> (status, iterations, "
     "residual, values, q_values, policy, optimal): policy iteration on a model's arrays; "
     "status SOLVED (0) where solved, else why not (and the arrays None)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_kernel",
    "Policy iteration in C for models of up to a few thousand states (see _solver.py).", -1,
    methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__kernel(void)
{
    import_array(); /* (returns NULL, an ImportError set, where numpy's ABI does not fit) */
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) {
        return NULL;
    }
    if (PyModule_AddIntConstant(m, "SOLVED", SOLVED) < 0
        || PyModule_AddIntConstant(m, "DECLINED", DECLINED) < 0
        || PyModule_AddIntConstant(m, "HOPELESS", HOPELESS) < 0
        || PyModule_AddIntConstant(m, "NOT_SETTLED", NOT_SETTLED) < 0
        || PyModule_AddIntConstant(m, "NUMERICAL", NUMERICAL) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
