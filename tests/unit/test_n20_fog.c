/*
 * test_n20_fog.c - the Fog of War optional rule [16.1] (`fog-of-war`): hidden
 * units, what each seat sees (view, legal(), events, rejections), the reveal
 * triggers of [16.1.1], reconcealment [16.1.2], and random play with fog on
 * where every byte given to a seat is checked for the id of a hidden enemy unit.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sodium.h>
#include <cmocka.h>

#include "canon.h"
#include "n20/testing/n20_test.h"
#include "n20/v1/n20.pb-c.h"

/* ---- helpers --------------------------------------------------------------- */

/* 1 if `data` contains, as a whole word, the id of a unit hidden from `seat` now ("GARDE's" holds
 * the word GARDE) */
static int s_leaks(const n20_state *s, int seat, const uint8_t *data, size_t len, char *which, size_t wcap) {
    for (int u = 0; u < s->sc->nunits; u++) {
        if (!n20_fog_hidden_from(s, u, seat)) continue;
        const char *id = n20_uid(s, u);
        size_t il = strlen(id);
        for (size_t i = 0; il && i + il <= len; i++) {
            if (memcmp(data + i, id, il) != 0) continue;
            uint8_t b = i ? data[i - 1] : ' ', a = i + il < len ? data[i + il] : ' ';
            int wb = (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9');
            int wa = (a >= 'A' && a <= 'Z') || (a >= '0' && a <= '9');
            if (wb || wa) continue;
            if (which) snprintf(which, wcap, "%s", id);
            return 1;
        }
    }
    return 0;
}

/* An event sink that records, per seat, the events it receives, and checks each for leaks. */
typedef struct f_rec {
    const n20_state *s;
    int n[2], nlog, nspect, leaks;
    char leak[256];
    t_events ev[2]; /* formatted text per seat */
    t_events full;  /* full events (the log) */
    t_events spect; /* what the spectators receive (public events and their own copies) */
} f_rec;

static void f_emit_to(void *ctx, uint32_t seats, const uint8_t *data, size_t len) {
    f_rec *r = ctx;
    int pub = seats == BRT_SEATS_ALL || (seats & 3u) == 3u;
    if (pub || seats == 0) t_events_emit(&r->full, data, len);
    if (seats == 0) r->nlog++;
    /* the spectators: every public event, and the copies marked for them (BRT_SEATS_SPECTATORS) */
    uint32_t to = seats & 3u;
    if (pub || (seats & BRT_SEATS_SPECTATORS)) to |= 4u;
    for (int k = 0; k < 3; k++) {
        if (!(to & (1u << k))) continue;
        int seat = k < 2 ? k : BRT_VIEW_PUBLIC;
        if (k < 2) {
            r->n[k]++;
            t_events_emit(&r->ev[k], data, len);
        } else {
            r->nspect++;
            t_events_emit(&r->spect, data, len);
        }
        /* each string of the event on its own: in the packed bytes an id runs into the tag byte of
         * the next field ("NAPOLEON" then 0x32 reads "NAPOLEON2") */
        N20__V1__Event *e = n20__v1__event__unpack(NULL, len, data);
        assert_non_null(e);
        char w[N20_NAME];
        int leak = s_leaks(r->s, seat, (const uint8_t *)e->text, strlen(e->text), w, sizeof w) ||
                   s_leaks(r->s, seat, (const uint8_t *)e->kind, strlen(e->kind), w, sizeof w);
        for (size_t i = 0; i < e->n_units && !leak; i++)
            leak = s_leaks(r->s, seat, (const uint8_t *)e->units[i], strlen(e->units[i]), w, sizeof w);
        n20__v1__event__free_unpacked(e, NULL);
        if (leak) {
            if (!r->leaks) snprintf(r->leak, sizeof r->leak, "event to party %d names hidden %s", k, w);
            r->leaks++;
        }
    }
}

static int f_order(n20_state *s, unsigned seat, const char *text, t_dice *d, f_rec *rec, brt_reject *err) {
    n20_sink sink = {f_emit_to, rec};
    n20_out out = {n20_sink_emit, &sink};
    if (rec) rec->s = s;
    return t_order_out(s, seat, text, d, rec ? &out : NULL, err);
}

/* An empty map with fog-of-war on: every unit face-down. */
static n20_state *f_empty(t_dice *d, int turn, int phasing) {
    n20_state *s = t_empty(d, turn, phasing);
    s->opts |= N20_OPT_FOG;
    for (int i = 0; i < s->sc->nunits; i++) s->u[i].hidden = 1;
    return s;
}

static int s_view_has(const n20_state *s, int seat, const char *needle) {
    brt_buf b;
    buf_init(&b);
    n20_view_text(s, seat, &b);
    buf_append(&b, "", 1);
    int r = strstr((char *)b.data, needle) != NULL;
    buf_free(&b);
    return r;
}

/* ---- [16.1] set-up and what each seat sees ---------------------------------- */

/* [16.1] "Players place their units face-down at all times (including during set up)" */
static void test_n20_16_1_setup_every_unit_face_down(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    const n20_scenario *sc = n20_scenario_get("waterloo20-standard");
    n20_state *s = n20_state_new(sc), *p = n20_state_new(sc);
    assert_int_equal(n20_setup(s, &d.d, NULL, N20_OPT_FOG, NULL), 0);
    t_dice_init(&d, 1);
    assert_int_equal(n20_setup(p, &d.d, NULL, 0, NULL), 0);
    for (int i = 0; i < sc->nunits; i++) {
        assert_int_equal(s->u[i].hidden, 1);
        assert_int_equal(p->u[i].hidden, 0);
    }
    /* the flag is in the canonical encoding with fog-of-war only (the options, one byte per unit, and
     * the [16.1.3] Dummy units, 2 per army in the Force Pools of [3.0]) */
    int ndummy = 0;
    for (int i = 0; i < sc->nunits; i++)
        if (sc->units[i].type == N20_DUMMY) {
            ndummy++;
            assert_int_equal(s->u[i].where, N20_U_OUT); /* "do not set up any Dummy units on the map" */
            assert_int_equal(sc->units[i].allowance, 3);
        }
    assert_int_equal(ndummy, 6);
    brt_buf a, b;
    buf_init(&a);
    buf_init(&b);
    assert_int_equal(n20_encode(s, &a), 0);
    assert_int_equal(n20_encode(p, &b), 0);
    assert_int_equal(a.len, b.len + 4 + sc->nunits + 7 * ndummy); /* a unit: hex 2, where, routed, flags 2, arrive */
    s->u[0].hidden = 0;
    brt_buf c;
    buf_init(&c);
    n20_encode(s, &c);
    assert_int_equal(c.len, a.len);
    assert_memory_not_equal(c.data, a.data, a.len);
    buf_free(&a);
    buf_free(&b);
    buf_free(&c);
    free(s);
    free(p);
}

/* [16.1] "You can freely inspect your own units, but not your opponent's pieces until they are
 * revealed": the seat's view lists a hidden enemy unit as "@XXYY", side only, no id/army/type/strength */
static void test_n20_16_1_view_shows_hidden_enemy_as_a_unit(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = f_empty(&d, 9, N20_FRENCH);
    t_place(s, "REILLE", 505);
    t_place(s, "ZIETEN", 808);
    int pirch = t_place(s, "PIRCH", 809);
    s->u[pirch].hidden = 0; /* revealed earlier */
    brt_buf b;
    buf_init(&b);
    assert_int_equal(n20_view(s, N20_FRENCH, &b), 0);
    N20__V1__View *v = n20__v1__view__unpack(NULL, b.len, b.data);
    assert_non_null(v);
    int anon = 0, reille = 0, pirch_seen = 0;
    for (size_t i = 0; i < v->n_units; i++) {
        const N20__V1__UnitView *u = v->units[i];
        assert_string_not_equal(u->id, "ZIETEN");
        if (strcmp(u->id, "@0808") == 0) {
            anon++;
            assert_string_equal(u->side, "allied");
            assert_string_equal(u->army, "");
            assert_string_equal(u->type, "hidden");
            assert_int_equal(u->strength, 0);
            assert_int_equal(u->allowance, 0);
            assert_int_equal(u->hex, 808);
        }
        if (strcmp(u->id, "@0808") == 0) assert_true(u->hidden);
        if (strcmp(u->id, "REILLE") == 0) reille++, assert_int_equal(u->strength, 4), assert_true(u->hidden);
        if (strcmp(u->id, "PIRCH") == 0) assert_false(u->hidden);
        if (strcmp(u->id, "PIRCH") == 0) pirch_seen++;
    }
    assert_int_equal(anon, 1);
    assert_int_equal(reille, 1);   /* own units, hidden or not, in full */
    assert_int_equal(pirch_seen, 1); /* a revealed enemy unit in full */
    n20__v1__view__free_unpacked(v, NULL);
    char w[N20_NAME];
    assert_false(s_leaks(s, N20_FRENCH, b.data, b.len, w, sizeof w));
    buf_free(&b);
    /* hidden units not on the map (reinforcements to come) are not listed at all */
    assert_false(s_view_has(s, N20_FRENCH, "UXBRIDGE"));
    assert_false(s_view_has(s, N20_FRENCH, "ZIETEN"));
    assert_true(s_view_has(s, N20_FRENCH, "@0808"));
    assert_true(s_view_has(s, N20_ALLIED, "ZIETEN"));
    assert_false(s_view_has(s, N20_ALLIED, "REILLE"));
    /* the log's view (seat < 0) has everything */
    assert_true(s_view_has(s, -1, "ZIETEN"));
    assert_true(s_view_has(s, -1, "REILLE"));
    assert_true(s_view_has(s, -1, "UXBRIDGE"));
    free(s);
}

/* [16.1] the anonymous entries come in hex order, not in the (identity-revealing) unit order */
static void test_n20_16_1_view_hidden_units_in_hex_order(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = f_empty(&d, 9, N20_FRENCH);
    t_place(s, "THIELMANN", 808); /* a later unit in the data, on the lower hex */
    t_place(s, "ORANGE", 1005);
    t_place(s, "ZIETEN", 1105);
    brt_buf b;
    buf_init(&b);
    n20_view(s, N20_FRENCH, &b);
    N20__V1__View *v = n20__v1__view__unpack(NULL, b.len, b.data);
    assert_non_null(v);
    unsigned last = 0;
    int n = 0;
    for (size_t i = 0; i < v->n_units; i++)
        if (v->units[i]->id[0] == '@') {
            assert_true(v->units[i]->hex > last);
            last = v->units[i]->hex;
            n++;
        }
    assert_int_equal(n, 3);
    n20__v1__view__free_unpacked(v, NULL);
    buf_free(&b);
    free(s);
}

/* [16.1] an event about a hidden unit: in full to its owner, "a unit" and its hex to the other seat,
 * one copy for each seat */
static void test_n20_16_1_events_full_to_owner_redacted_to_enemy(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = f_empty(&d, 9, N20_FRENCH);
    t_place(s, "REILLE", 505);
    t_place(s, "ZIETEN", 1010);
    f_rec rec = {0};
    brt_reject err;
    assert_int_equal(f_order(s, N20_FRENCH, "move REILLE 0506", &d, &rec, &err), 0);
    assert_int_equal(rec.n[0], 1);
    assert_int_equal(rec.n[1], 1);
    assert_int_equal(rec.nlog, 0);
    assert_true(t_events_has(&rec.ev[0], "REILLE moves to 0506"));
    assert_false(t_events_has(&rec.ev[1], "REILLE"));
    assert_true(t_events_has(&rec.ev[1], "a unit moves to 0506"));
    assert_int_equal(rec.leaks, 0);
    free(s);
}

/* [16.1] the spectators' copy of an event about a hidden unit: the enemy seat's redacted copy,
 * once ("a unit" and its hex), never the owner's */
static void test_n20_16_1_spectators_copy_names_hidden_unit_as_a_unit(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = f_empty(&d, 9, N20_FRENCH);
    t_place(s, "REILLE", 505);
    t_place(s, "ZIETEN", 1010);
    f_rec rec = {0};
    brt_reject err;
    assert_int_equal(f_order(s, N20_FRENCH, "move REILLE 0506", &d, &rec, &err), 0);
    assert_int_equal(rec.nspect, 1);
    assert_true(t_events_has(&rec.spect, "a unit moves to 0506"));
    assert_false(t_events_has(&rec.spect, "REILLE"));
    assert_int_equal(rec.leaks, 0);
    free(s);
}

/* [9.2] [16.1] a declaration of 8 attackers against 8 defenders, every unit face-down: the
 * placeholders N20_U(0) .. N20_U(15) ('0'..'9', 'A'..'F') name all sixteen in the full copy, each
 * seat reads the other side's units as "a unit", and the spectators read every one so */
static void test_n20_9_2_declared_event_names_sixteen_units_per_party(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = f_empty(&d, 9, N20_FRENCH);
    int us[16], nf = 0, na = 0;
    for (int u = 0; u < s->sc->nunits && (nf < 8 || na < 8); u++) {
        int side = n20_side_of(s, u);
        if (s->sc->units[u].type == N20_LEADER || s->sc->units[u].type == N20_DUMMY || !n20_unit_in_game(s, u))
            continue;
        if (side == N20_FRENCH && nf < 8) us[nf++] = u;
        else if (side == N20_ALLIED && na < 8) us[8 + na++] = u;
    }
    assert_int_equal(nf, 8);
    assert_int_equal(na, 8);
    for (int i = 0; i < 16; i++) {
        s->u[us[i]].where = N20_U_MAP;
        s->u[us[i]].hex = n20_hex((unsigned)(101 + i));
    }
    f_rec rec = {0};
    rec.s = s;
    n20_sink sink = {f_emit_to, &rec};
    n20_out out = {n20_sink_emit, &sink};
    char la[4 * N20_U_MAX], ld[4 * N20_U_MAX];
    n20_event(&out, s, "declared", us, 16, NULL, 0, NULL, 0, "[9.2] battle 1 declared: %s attack %s",
              n20_u_list(la, sizeof la, 0, 8), n20_u_list(ld, sizeof ld, 8, 8));
    /* the full copy, to the log only: every id in order */
    char want[640];
    size_t k = (size_t)snprintf(want, sizeof want, "[9.2] battle 1 declared: ");
    for (int i = 0; i < 16; i++)
        k += (size_t)snprintf(want + k, sizeof want - k, "%s%s", i == 8 ? " attack " : i ? ", " : "",
                              n20_uid(s, us[i]));
    assert_int_equal(rec.nlog, 1);
    assert_true(t_events_has(&rec.full, want));
    /* the French seat: its eight, then "a unit" eight times; the Allied seat the other way round */
    for (int seat = 0; seat < 2; seat++) {
        k = (size_t)snprintf(want, sizeof want, "[9.2] battle 1 declared: ");
        for (int i = 0; i < 16; i++) {
            int own = (i < 8) == (seat == N20_FRENCH);
            k += (size_t)snprintf(want + k, sizeof want - k, "%s%s", i == 8 ? " attack " : i ? ", " : "",
                                  own ? n20_uid(s, us[i]) : "a unit");
        }
        assert_int_equal(rec.n[seat], 1);
        assert_true(t_events_has(&rec.ev[seat], want));
    }
    assert_int_equal(rec.nspect, 1);
    assert_true(t_events_has(&rec.spect, "[9.2] battle 1 declared: a unit, a unit, a unit, a unit, a unit, a unit, a unit, "
                                         "a unit attack a unit, a unit, a unit, a unit, a unit, a unit, a unit, a unit"));
    assert_int_equal(rec.leaks, 0);
    free(s);
}

/* [16.1] an event naming hidden units of both sides: the full event to the log only (no seat),
 * a redacted copy to each seat and one to the spectators (BRT_SEATS_SPECTATORS); naming hidden
 * units of one side: the owner's full copy, and the other seat's redacted one, which is the
 * spectators' too; one naming no hidden unit: public */
typedef struct f_masks {
    uint32_t seats[8];
    char text[8][128];
    int n;
} f_masks;
static void f_mask_emit(void *ctx, uint32_t seats, const uint8_t *data, size_t len) {
    f_masks *m = ctx;
    if (m->n >= 8) return;
    N20__V1__Event *e = n20__v1__event__unpack(NULL, len, data);
    snprintf(m->text[m->n], sizeof m->text[m->n], "%s", e && e->text ? e->text : "");
    if (e) n20__v1__event__free_unpacked(e, NULL);
    m->seats[m->n++] = seats;
}

static void test_n20_16_1_event_masks(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = f_empty(&d, 9, N20_FRENCH);
    int us[2] = {t_place(s, "REILLE", 505), t_place(s, "ZIETEN", 506)};
    f_masks m = {0};
    n20_sink sink = {f_mask_emit, &m};
    n20_out out = {n20_sink_emit, &sink};
    n20_event(&out, s, "test", us, 2, NULL, 0, NULL, 0, N20_U(0) " meets " N20_U(1));
    assert_int_equal(m.n, 4);
    assert_int_equal(m.seats[0], 0u); /* the log */
    assert_string_equal(m.text[0], "REILLE meets ZIETEN");
    assert_int_equal(m.seats[1], 1u);
    assert_string_equal(m.text[1], "REILLE meets a unit");
    assert_int_equal(m.seats[2], 2u);
    assert_string_equal(m.text[2], "a unit meets ZIETEN");
    assert_int_equal(m.seats[3], BRT_SEATS_SPECTATORS); /* the spectators: neither */
    assert_string_equal(m.text[3], "a unit meets a unit");
    m.n = 0;
    n20_event(&out, s, "test", us, 1, NULL, 0, NULL, 0, N20_U(0) " moves");
    assert_int_equal(m.n, 2);
    assert_int_equal(m.seats[0], 1u); /* the owner: full */
    assert_string_equal(m.text[0], "REILLE moves");
    assert_int_equal(m.seats[1], 2u | BRT_SEATS_SPECTATORS); /* the other seat and the spectators: redacted */
    assert_string_equal(m.text[1], "a unit moves");
    m.n = 0;
    s->u[us[0]].hidden = 0;
    n20_event(&out, s, "test", us, 1, NULL, 0, NULL, 0, "REILLE moves");
    assert_int_equal(m.n, 1);
    assert_int_equal(m.seats[0], BRT_SEATS_ALL);
    free(s);
}

/* [16.1] orders name a hidden enemy unit by its hex (@XXYY); its id names nothing, and the
 * rejection says no more than for any unknown name */
static void test_n20_16_1_hidden_enemy_named_by_hex_only(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = f_empty(&d, 9, N20_FRENCH);
    t_place(s, "REILLE", 505);
    t_place(s, "ZIETEN", 506);
    s->phase = N20_PH_DECLARE;
    brt_reject err;
    f_rec rec = {0};
    assert_int_equal(f_order(s, N20_FRENCH, "declare REILLE -> ZIETEN", &d, &rec, &err), -1);
    assert_string_equal(err.rule, "3.0");
    assert_null(strstr(err.message, "ZIETEN"));
    brt_reject err2;
    assert_int_equal(f_order(s, N20_FRENCH, "declare REILLE -> NOSUCH", &d, &rec, &err2), -1);
    assert_string_equal(err2.rule, err.rule);
    assert_int_equal(rec.n[0] + rec.n[1], 0);
    /* legal() names the defender by its hex */
    brt_buf b;
    buf_init(&b);
    assert_true(n20_legal(s, N20_FRENCH, &b) > 0);
    char w[N20_NAME];
    assert_false(s_leaks(s, N20_FRENCH, b.data, b.len, w, sizeof w));
    size_t pos = 0;
    const uint8_t *it;
    size_t len;
    int found = 0;
    while (buf_next_item(&b, &pos, &it, &len) == 1) {
        brt_buf t;
        buf_init(&t);
        n20_order_format(it, len, &t);
        buf_append(&t, "", 1);
        if (strstr((char *)t.data, "REILLE -> @0506")) found = 1;
        buf_free(&t);
    }
    assert_true(found);
    buf_free(&b);
    /* the allied seat names its own unit by id in the same position */
    assert_int_equal(f_order(s, N20_FRENCH, "declare REILLE -> @0506", &d, &rec, &err), 0);
    free(s);
}

/* ---- [16.1.1] revealing ------------------------------------------------------ */

/* [16.1.1] "After all battles are declared ... all units involved are revealed" */
static void test_n20_16_1_1_declared_battle_reveals_every_unit_involved(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = f_empty(&d, 9, N20_FRENCH);
    int r = t_place(s, "REILLE", 505);
    int z = t_place(s, "ZIETEN", 506);
    int far = t_place(s, "PIRCH", 1010);
    s->phase = N20_PH_DECLARE;
    f_rec rec = {0};
    brt_reject err;
    assert_int_equal(f_order(s, N20_FRENCH, "declare REILLE -> @0506", &d, &rec, &err), 0);
    assert_int_equal(s->u[r].hidden, 0);
    assert_int_equal(s->u[z].hidden, 0);
    assert_int_equal(s->u[far].hidden, 1); /* not involved */
    assert_true(t_events_has(&rec.ev[0], "ZIETEN (prussian infantry 3-2) is revealed at 0506"));
    assert_true(t_events_has(&rec.ev[1], "REILLE (french infantry 4-2) is revealed at 0505"));
    /* the declaration itself is then public */
    assert_true(t_events_has(&rec.ev[1], "battle 1 declared"));
    assert_int_equal(rec.leaks, 0);
    assert_int_equal(rec.n[0], rec.n[1]);
    free(s);
}

/* [16.1.1] "if you have a face-up Cavalry unit adjacent to a hex containing face-down enemy
 * units, reveal all of those": at the end of a non-Night Movement Phase */
static void test_n20_16_1_1_face_up_cavalry_scouts_at_end_of_movement(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = f_empty(&d, 9, N20_FRENCH);
    int k = t_place(s, "KELLERMANN", 505);
    s->u[k].hidden = 0; /* face-up */
    int z = t_place(s, "ZIETEN", 506);
    int p = t_place(s, "PIRCH", 1010);
    int m = t_place(s, "MILHAUD", 1008); /* a face-down cavalry unit does not scout */
    int t = t_place(s, "THIELMANN", 1009);
    f_rec rec = {0};
    brt_reject err;
    assert_int_equal(f_order(s, N20_FRENCH, "end", &d, &rec, &err), 0);
    assert_int_equal(s->u[z].hidden, 0);
    assert_int_equal(s->u[p].hidden, 1);
    assert_int_equal(s->u[t].hidden, 1);
    assert_int_equal(s->u[m].hidden, 1);
    assert_true(t_events_has(&rec.ev[0], "[16.1.1 cavalry scouting] ZIETEN"));
    assert_int_equal(rec.leaks, 0);
    free(s);
}

/* [16.1.1] no scouting at the end of a Night Turn's Movement Phase */
static void test_n20_16_1_1_no_scouting_at_night(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = f_empty(&d, 12, N20_FRENCH);
    int k = t_place(s, "KELLERMANN", 505);
    s->u[k].hidden = 0;
    int z = t_place(s, "ZIETEN", 506);
    f_rec rec = {0};
    brt_reject err;
    assert_int_equal(f_order(s, N20_FRENCH, "end", &d, &rec, &err), 0);
    assert_int_equal(s->u[z].hidden, 1);
    assert_false(t_events_has(&rec.full, "scouting"));
    free(s);
}

/* [16.1.1] "When you pay a Morale Point to Commit the Guard [12.3.1] ... that Guard unit, if hidden,
 * must be revealed" */
static void test_n20_16_1_1_committing_the_guard_reveals_it(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = f_empty(&d, 9, N20_FRENCH);
    int g = t_place(s, "GARDE", 505);
    t_place(s, "ZIETEN", 508);
    f_rec rec = {0};
    brt_reject err;
    assert_int_equal(f_order(s, N20_FRENCH, "move GARDE 0506 0507", &d, &rec, &err), 0);
    assert_int_equal(s->morale[N20_FRENCH], 7);
    assert_int_equal(s->u[g].hidden, 0);
    assert_true(t_events_has(&rec.ev[1], "GARDE (french infantry 3-2) is revealed at 0505"));
    assert_true(t_events_has(&rec.ev[1], "GARDE moves to 0507 (Guard committed"));
    assert_int_equal(rec.leaks, 0);
    free(s);
    /* no Morale Point paid (own side at 1): the Guard stays hidden */
    t_dice_init(&d, 1);
    s = f_empty(&d, 9, N20_FRENCH);
    g = t_place(s, "GARDE", 505);
    t_place(s, "ZIETEN", 508);
    s->morale[N20_FRENCH] = 1;
    assert_int_equal(f_order(s, N20_FRENCH, "move GARDE 0506 0507", &d, NULL, &err), 0);
    assert_int_equal(s->u[g].hidden, 1);
    free(s);
}

/* [16.1.1] "Whenever you desire to reveal your own unit": `reveal UNIT` at any of your decisions;
 * the decision stays pending */
static void test_n20_16_1_1_owner_reveals_own_unit_at_will(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = f_empty(&d, 9, N20_FRENCH);
    int r = t_place(s, "REILLE", 505);
    int z = t_place(s, "ZIETEN", 808);
    f_rec rec = {0};
    brt_reject err;
    assert_true(t_legal_has(s, N20_FRENCH, "reveal REILLE"));
    assert_int_equal(f_order(s, N20_FRENCH, "reveal REILLE", &d, &rec, &err), 0);
    assert_int_equal(s->u[r].hidden, 0);
    assert_int_equal(s->phase, N20_PH_MOVE);
    assert_true(t_events_has(&rec.ev[1], "[16.1.1 revealed by its owner] REILLE (french infantry 4-2)"));
    assert_false(t_legal_has(s, N20_FRENCH, "reveal REILLE")); /* face-up now */
    assert_int_equal(f_order(s, N20_FRENCH, "reveal REILLE", &d, &rec, &err), -1);
    assert_string_equal(err.rule, "16.1.1");
    /* not an enemy unit, by handle or id */
    assert_int_equal(f_order(s, N20_FRENCH, "reveal @0808", &d, &rec, &err), -1);
    assert_string_equal(err.rule, "16.1.1");
    assert_null(strstr(err.message, "ZIETEN"));
    assert_int_equal(f_order(s, N20_FRENCH, "reveal ZIETEN", &d, &rec, &err), -1);
    assert_string_equal(err.rule, "3.0");
    assert_int_equal(s->u[z].hidden, 1);
    /* the allied seat cannot reveal when the decision is not its own */
    assert_int_equal(f_order(s, N20_ALLIED, "reveal ZIETEN", &d, &rec, &err), -1);
    assert_int_equal(err.code, BRT_REJECT_NOT_YOUR_DECISION);
    free(s);
    /* without fog-of-war there is nothing to reveal */
    t_dice_init(&d, 1);
    s = t_empty(&d, 9, N20_FRENCH);
    t_place(s, "REILLE", 505);
    assert_int_equal(t_order(s, N20_FRENCH, "reveal REILLE", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "6.0");
    free(s);
}

/* [16.1.1] "When an enemy Cavalry unit attempts to move during its Reaction Phase via Disengagement
 * [8.2] ..., and you wish to prevent that maneuver with a hidden friendly Cavalry unit, your hidden
 * friendly Cavalry unit is revealed" */
static void test_n20_16_1_1_hidden_cavalry_prevents_disengagement(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = f_empty(&d, 9, N20_FRENCH);
    int c = t_place(s, "COLLAERT", 1005);
    int k = t_place(s, "KELLERMANN", 1006);
    s->u[c].flags = N20_UF_REACT_OK;
    s->phase = N20_PH_REACTION;
    /* the Allied seat cannot see that it is pinned: the disengagement is a legal order */
    assert_true(t_legal_has(s, N20_ALLIED, "disengage COLLAERT 1004"));
    f_rec rec = {0};
    brt_reject err;
    assert_int_equal(f_order(s, N20_ALLIED, "disengage COLLAERT 1004", &d, &rec, &err), 0);
    assert_int_equal(s->u[c].hex, n20_hex(1005)); /* it stays */
    assert_true(s->u[c].flags & N20_UF_REACTED);
    assert_int_equal(s->u[k].hidden, 0);
    assert_true(t_events_has(&rec.ev[1], "KELLERMANN (french cavalry 2-3) is revealed at 1006"));
    assert_true(t_events_has(&rec.ev[1], "COLLAERT cannot disengage"));
    assert_int_equal(s->phase, N20_PH_REACTION);
    assert_int_equal(rec.leaks, 0);
    /* once face-up, the Cavalry pins openly: the order is refused [8.2.2] */
    s->u[c].flags = N20_UF_REACT_OK;
    assert_int_equal(f_order(s, N20_ALLIED, "disengage COLLAERT 1004", &d, &rec, &err), -1);
    assert_string_equal(err.rule, "8.2.2");
    free(s);
    /* a hidden enemy Infantry unit does not pin: the disengagement succeeds */
    t_dice_init(&d, 1);
    s = f_empty(&d, 9, N20_FRENCH);
    c = t_place(s, "COLLAERT", 1005);
    int r = t_place(s, "REILLE", 1006);
    s->u[c].flags = N20_UF_REACT_OK;
    s->phase = N20_PH_REACTION;
    assert_int_equal(f_order(s, N20_ALLIED, "disengage COLLAERT 1004", &d, NULL, &err), 0);
    assert_int_equal(s->u[c].hex, n20_hex(1004));
    assert_int_equal(s->u[r].hidden, 1);
    free(s);
}

/* [16.1.2] "Face-up units remain revealed until the end of your Night Turn, at which time turn all of
 * your face-up units face-down"; the other side's face-up units stay face-up */
static void test_n20_16_1_2_reconceal_at_own_night_operations(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = f_empty(&d, 12, N20_FRENCH);
    int r = t_place(s, "REILLE", 505);
    int z = t_place(s, "ZIETEN", 1010);
    s->u[r].hidden = 0;
    s->u[z].hidden = 0;
    s->phase = N20_PH_NIGHT_AFTER_RALLY;
    f_rec rec = {0};
    rec.s = s;
    n20_sink sink = {f_emit_to, &rec};
    n20_out out = {n20_sink_emit, &sink};
    n20_run(s, &d.d, &out);
    assert_int_equal(s->u[r].hidden, 1);
    assert_int_equal(s->u[z].hidden, 0);
    assert_true(t_events_has(&rec.ev[1], "[16.1.2] the french units are reconcealed (1 turned face-down)"));
    free(s);
}

/* [16.1.3] "newly Rallied ... units (these units are also hidden)" */
static void test_n20_16_1_3_rallied_unit_placed_hidden(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = f_empty(&d, 12, N20_FRENCH);
    int r = n20_unit_find(s, "REILLE");
    s->u[r].where = N20_U_BROKEN;
    s->u[r].hidden = 0;
    s->u[r].flags = N20_UF_RALLIED;
    s->phase = N20_PH_PLACE;
    f_rec rec = {0};
    brt_reject err;
    char text[32];
    snprintf(text, sizeof text, "place REILLE %04u", n20_xxyy(s->sc->loc[N20_ARMY_FRENCH][0]));
    assert_int_equal(f_order(s, N20_FRENCH, text, &d, &rec, &err), 0);
    assert_int_equal(s->u[r].hidden, 1);
    assert_true(t_events_has(&rec.ev[1], "a unit is placed at"));
    assert_int_equal(rec.leaks, 0);
    free(s);
}


/* ---- [16.1.3] Dummy units ---------------------------------------------------- */

/* [16.1.3] "You may add to the map one hidden friendly Dummy unit per turn, if available, with the
 * arrival of ... new Reinforcement units"; from the other seat it looks like any arrival */
static void test_n20_16_1_3_dummy_enters_with_reinforcements(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = f_empty(&d, 9, N20_ALLIED);
    int ux = n20_unit_find(s, "UXBRIDGE");
    s->u[ux].where = N20_U_REINF;
    s->u[ux].arrive = 9;
    int dm = n20_unit_find(s, "A-DUMMY-1");
    f_rec rec = {0};
    brt_reject err;
    /* no arrival yet: no Dummy */
    assert_false(t_legal_has(s, N20_ALLIED, "move A-DUMMY-1 1801"));
    assert_int_equal(f_order(s, N20_ALLIED, "move A-DUMMY-1 1801", &d, &rec, &err), -1);
    assert_string_equal(err.rule, "16.1.3");
    assert_int_equal(f_order(s, N20_ALLIED, "move UXBRIDGE 1801 1802", &d, &rec, &err), 0);
    assert_true(t_legal_has(s, N20_ALLIED, "move A-DUMMY-1 1801"));
    /* it enters where the Reinforcement entered, not elsewhere */
    assert_int_equal(f_order(s, N20_ALLIED, "move A-DUMMY-1 1701", &d, &rec, &err), -1);
    assert_string_equal(err.rule, "11.6");
    int n0 = rec.n[0];
    assert_int_equal(f_order(s, N20_ALLIED, "move A-DUMMY-1 1801", &d, &rec, &err), 0);
    assert_int_equal(s->u[dm].where, N20_U_MAP);
    assert_int_equal(s->u[dm].hidden, 1);
    assert_int_equal(rec.n[0] - n0, 1);
    assert_true(t_events_has(&rec.ev[0], "a unit enters the map at 1801"));
    assert_int_equal(rec.leaks, 0);
    /* one per turn */
    assert_int_equal(f_order(s, N20_ALLIED, "move P-DUMMY-1 1801", &d, &rec, &err), -1);
    assert_string_equal(err.rule, "16.1.3");
    free(s);
}

/* [16.1.3] "... with the arrival of either your newly Rallied or new Reinforcement units ... They arrive
 * stacked together ... and you must move at least one of them": a unit Rallied by an Event before the
 * Movement Phase; the Dummy enters through its hex and moves off it (R-16.1.3-arrival) */
static void test_n20_16_1_3_dummy_enters_with_rallied_unit(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = f_empty(&d, 9, N20_FRENCH);
    int r = n20_unit_find(s, "REILLE");
    uint16_t loc = s->sc->loc[N20_ARMY_FRENCH][0];
    brt_reject err;
    assert_int_equal(f_order(s, N20_FRENCH, "move F-DUMMY-1 0105", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "16.1.3");
    n20_place_apply(s, r, loc, NULL); /* placed by the Rally of this player turn */
    /* a legal entry goes through the rallied unit's hex and ends off it */
    brt_buf b;
    buf_init(&b);
    n20_legal(s, N20_FRENCH, &b);
    char prefix[32], found[64] = "";
    snprintf(prefix, sizeof prefix, "move F-DUMMY-1 %04u ", n20_xxyy(loc));
    size_t pos = 0;
    const uint8_t *it;
    size_t len;
    while (buf_next_item(&b, &pos, &it, &len) == 1) {
        brt_buf tx;
        buf_init(&tx);
        n20_order_format(it, len, &tx);
        buf_append(&tx, "", 1);
        if (!found[0] && strncmp((char *)tx.data, prefix, strlen(prefix)) == 0) snprintf(found, sizeof found, "%s", (char *)tx.data);
        buf_free(&tx);
    }
    buf_free(&b);
    assert_true(found[0]);
    char stay[32];
    snprintf(stay, sizeof stay, "move F-DUMMY-1 %04u", n20_xxyy(loc));
    assert_int_equal(f_order(s, N20_FRENCH, stay, &d, NULL, &err), -1); /* may not stay stacked */
    assert_string_equal(err.rule, "6.9");
    f_rec rec = {0};
    assert_int_equal(f_order(s, N20_FRENCH, found, &d, &rec, &err), 0);
    assert_int_equal(s->u[n20_unit_find(s, "F-DUMMY-1")].where, N20_U_MAP);
    assert_int_equal(rec.leaks, 0);
    free(s);
}

/* [16.1.3] a Dummy and a real unit look the same to the other seat: same view entry but the hex */
static void test_n20_16_1_3_dummy_indistinguishable_in_view(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = f_empty(&d, 9, N20_FRENCH);
    t_place(s, "A-DUMMY-1", 1010);
    t_place(s, "ORANGE", 1005);
    brt_buf b;
    buf_init(&b);
    n20_view(s, N20_FRENCH, &b);
    N20__V1__View *v = n20__v1__view__unpack(NULL, b.len, b.data);
    assert_non_null(v);
    const N20__V1__UnitView *x = NULL, *y = NULL;
    for (size_t i = 0; i < v->n_units; i++) {
        if (v->units[i]->hex == 1010) x = v->units[i];
        if (v->units[i]->hex == 1005) y = v->units[i];
    }
    assert_non_null(x);
    assert_non_null(y);
    assert_string_equal(x->id, "@1010");
    assert_string_equal(y->id, "@1005");
    N20__V1__UnitView xc = *x, yc = *y;
    xc.id = yc.id = (char *)"";
    xc.hex = yc.hex = 0;
    xc.base.unknown_fields = yc.base.unknown_fields = NULL;
    uint8_t px[256], py[256];
    size_t lx = n20__v1__unit_view__pack(&xc, px), ly = n20__v1__unit_view__pack(&yc, py);
    assert_int_equal(lx, ly);
    assert_memory_equal(px, py, lx);
    n20__v1__view__free_unpacked(v, NULL);
    buf_free(&b);
    /* its owner sees it for what it is */
    assert_true(s_view_has(s, N20_ALLIED, "A-DUMMY-1"));
    free(s);
}

/* [16.1.3] "The instant you reveal your Dummy unit, it is removed from the map (with no Morale loss)";
 * [16.1.1] "No Advance after Combat is permitted when only a hidden Dummy unit is revealed in Battle" */
static void test_n20_16_1_3_attacked_dummy_removed_no_combat(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = f_empty(&d, 9, N20_FRENCH);
    int r = t_place(s, "REILLE", 505);
    int dm = t_place(s, "A-DUMMY-1", 506);
    s->phase = N20_PH_DECLARE;
    f_rec rec = {0};
    brt_reject err;
    int m0 = s->morale[0], m1 = s->morale[1], rolls = d.npurposes;
    assert_true(t_legal_has(s, N20_FRENCH, "declare REILLE -> @0506"));
    assert_int_equal(f_order(s, N20_FRENCH, "declare REILLE -> @0506", &d, &rec, &err), 0);
    assert_int_equal(s->u[dm].where, N20_U_OUT);
    assert_int_equal(s->u[dm].hidden, 1); /* back in the pool, ready to re-enter */
    assert_int_equal(s->u[r].hidden, 0);
    assert_int_equal(s->u[r].hex, n20_hex(505)); /* no advance */
    assert_int_equal(s->morale[0], m0);
    assert_int_equal(s->morale[1], m1);
    assert_int_equal(d.npurposes, rolls); /* no combat die */
    assert_true(t_events_has(&rec.ev[0], "A-DUMMY-1 is a Dummy, revealed at 0506 and removed"));
    assert_true(t_events_has(&rec.ev[0], "battle 1: only Dummy units"));
    assert_true(s->phase != N20_PH_BATTLES && s->phase != N20_PH_ADVANCE);
    free(s);
}

/* [16.1.3] "When declaring battles [9.2], include hidden Dummy units! Their declared battles do fulfill
 * the attacker's mandatory combat requirement [9.1]"; "Dummy units do cause enemy units to be revealed" */
static void test_n20_16_1_3_dummy_attack_fulfils_obligation_and_scouts(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = f_empty(&d, 9, N20_ALLIED);
    int dm = t_place(s, "A-DUMMY-1", 506);
    int r = t_place(s, "REILLE", 505);
    s->phase = N20_PH_DECLARE;
    brt_reject err;
    assert_int_equal(f_order(s, N20_ALLIED, "declare", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "9.1"); /* the Dummy in an enemy ZOC must attack */
    f_rec rec = {0};
    int rolls = d.npurposes;
    assert_int_equal(f_order(s, N20_ALLIED, "declare A-DUMMY-1 -> @0505", &d, &rec, &err), 0);
    assert_int_equal(s->u[dm].where, N20_U_OUT);
    assert_int_equal(s->u[r].hidden, 0);
    assert_int_equal(d.npurposes, rolls);
    assert_int_equal(rec.leaks, 0);
    free(s);
}

/* [16.1.3] at reconcealment, "place in play all of your available Dummy units ... in hexes containing a
 * friendly unit that is not adjacent to an enemy unit and then immediately relocate one of those two
 * stacked units ... to an adjacent hex that is also not adjacent to an enemy unit" */
static void test_n20_16_1_3_dummies_placed_at_night(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = f_empty(&d, 12, N20_FRENCH);
    t_place(s, "REILLE", 505);
    t_place(s, "VANDAMME", 1008);
    t_place(s, "ZIETEN", 1010);
    s->phase = N20_PH_NIGHT_AFTER_RALLY;
    n20_run(s, &d.d, NULL);
    assert_int_equal(s->phase, N20_PH_DUMMIES);
    brt_pending p;
    n20_pending(s, &p);
    assert_string_equal(p.kind, "place-dummies");
    assert_int_equal(n20_pending_seat(s), N20_FRENCH);
    brt_reject err;
    f_rec rec = {0};
    assert_true(t_legal_has(s, N20_FRENCH, "place F-DUMMY-1 0506"));
    assert_int_equal(f_order(s, N20_FRENCH, "place F-DUMMY-1 0505", &d, &rec, &err), -1); /* occupied */
    assert_string_equal(err.rule, "6.9");
    assert_int_equal(f_order(s, N20_FRENCH, "place F-DUMMY-1 0507", &d, &rec, &err), -1); /* not next to REILLE */
    assert_string_equal(err.rule, "16.1.3");
    assert_int_equal(f_order(s, N20_FRENCH, "place F-DUMMY-1 1009", &d, &rec, &err), -1); /* next to an enemy */
    assert_string_equal(err.rule, "16.1.3");
    assert_int_equal(f_order(s, N20_FRENCH, "place F-DUMMY-1 0506", &d, &rec, &err), 0);
    assert_true(t_events_has(&rec.ev[1], "a unit is placed at 0506"));
    assert_int_equal(rec.leaks, 0);
    assert_int_equal(s->phase, N20_PH_DUMMIES);
    assert_int_equal(f_order(s, N20_FRENCH, "place F-DUMMY-2 0504", &d, &rec, &err), 0);
    /* none left: the turn goes on */
    assert_true(s->phase != N20_PH_DUMMIES);
    free(s);
    /* with units next to the enemy only, there is nowhere to place: no decision */
    t_dice_init(&d, 1);
    s = f_empty(&d, 12, N20_FRENCH);
    t_place(s, "REILLE", 505);
    t_place(s, "ZIETEN", 506);
    s->phase = N20_PH_NIGHT_AFTER_RALLY;
    n20_run(s, &d.d, NULL);
    assert_true(s->phase != N20_PH_DUMMIES);
    free(s);
}

/* [16.1.3] a Dummy revealed by its owner is removed at once */
static void test_n20_16_1_3_owner_reveals_dummy_removed(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = f_empty(&d, 9, N20_FRENCH);
    int dm = t_place(s, "F-DUMMY-1", 505);
    brt_reject err;
    assert_int_equal(f_order(s, N20_FRENCH, "reveal F-DUMMY-1", &d, NULL, &err), 0);
    assert_int_equal(s->u[dm].where, N20_U_OUT);
    assert_int_equal(s->phase, N20_PH_MOVE);
    free(s);
}

/* ---- random play with fog-of-war --------------------------------------------- */

/* ---- [16.6.1] Breaking Down with fog-of-war -------------------------------- */

/* [16.6.1] "If an unrevealed large Infantry unit breaks down, one Dummy unit (if available and Rule
 * [16.1] is in effect) can also be added to that stack of two (also unrevealed) Cadre units when it is
 * formed": `breakdown UNIT dummy`; the other seat sees three identical face-down pieces */
static void test_n20_16_6_1_breakdown_adds_dummy_under_fog(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = f_empty(&d, 9, N20_FRENCH);
    s->opts |= N20_OPT_BREAKDOWN;
    int r = t_place(s, "REILLE", 1505);
    t_place(s, "ORANGE", 1510);
    int c1 = n20_unit_find(s, "CADRE-F1"), c2 = n20_unit_find(s, "CADRE-F2"), dm = n20_unit_find(s, "F-DUMMY-1");
    int m0 = s->morale[N20_FRENCH];
    f_rec rec = {0};
    brt_reject err;
    assert_true(t_legal_has(s, N20_FRENCH, "breakdown REILLE"));
    assert_true(t_legal_has(s, N20_FRENCH, "breakdown REILLE dummy"));
    assert_int_equal(f_order(s, N20_FRENCH, "breakdown REILLE dummy", &d, &rec, &err), 0);
    assert_int_equal(s->u[r].where, N20_U_ELIM);
    int pieces[3] = {c1, c2, dm};
    for (int k = 0; k < 3; k++) {
        assert_int_equal(s->u[pieces[k]].where, N20_U_MAP);
        assert_int_equal(s->u[pieces[k]].hex, n20_hex(1505));
        assert_int_equal(s->u[pieces[k]].hidden, 1);
        assert_int_equal(s->u[pieces[k]].flags, 0); /* all free to move */
    }
    assert_int_equal(s->morale[N20_FRENCH], m0 - 1); /* the Dummy costs nothing more */
    assert_int_equal(rec.leaks, 0);
    assert_int_equal(rec.n[0], rec.n[1]);
    assert_true(t_events_has(&rec.ev[0], "[16.6.1] REILLE breaks down at 1505 into CADRE-F1, CADRE-F2 and F-DUMMY-1 "
                                         "(two Cadre units and a Dummy unit [16.1.3])"));
    assert_true(t_events_has(&rec.ev[1], "[16.6.1] a unit breaks down at 1505 into a unit, a unit and a unit (two "
                                         "Cadre units and a Dummy unit [16.1.3])"));
    assert_false(t_events_has(&rec.ev[1], "F-DUMMY"));
    assert_false(t_events_has(&rec.ev[1], "CADRE-"));
    /* the Allied view: three entries at 1505, byte for byte the same */
    brt_buf b;
    buf_init(&b);
    n20_view(s, N20_ALLIED, &b);
    N20__V1__View *v = n20__v1__view__unpack(NULL, b.len, b.data);
    assert_non_null(v);
    uint8_t first[256];
    size_t flen = 0;
    int at = 0;
    for (size_t i = 0; i < v->n_units; i++) {
        if (v->units[i]->hex != 1505) continue;
        uint8_t px[256];
        size_t lx = n20__v1__unit_view__pack(v->units[i], px);
        assert_string_equal(v->units[i]->id, "@1505");
        if (!at++) {
            memcpy(first, px, lx);
            flen = lx;
        } else {
            assert_int_equal(lx, flen);
            assert_memory_equal(px, first, lx);
        }
    }
    assert_int_equal(at, 3);
    n20__v1__view__free_unpacked(v, NULL);
    buf_reset(&b);
    n20_view_text(s, N20_ALLIED, &b);
    buf_append(&b, "", 1);
    assert_null(strstr((char *)b.data, "F-DUMMY"));
    assert_null(strstr((char *)b.data, "CADRE-F"));
    buf_free(&b);
    /* [6.9] the three may not stay stacked: the Dummy moves off (it moves like Cavalry) */
    assert_int_equal(f_order(s, N20_FRENCH, "end", &d, &rec, &err), -1);
    assert_string_equal(err.rule, "6.9");
    assert_int_equal(f_order(s, N20_FRENCH, "move F-DUMMY-1 1506 1507 1508", &d, &rec, &err), 0);
    assert_int_equal(f_order(s, N20_FRENCH, "move CADRE-F1 1504", &d, &rec, &err), 0);
    assert_int_equal(f_order(s, N20_FRENCH, "end", &d, &rec, &err), 0);
    assert_int_equal(rec.leaks, 0);
    free(s);
}

/* [16.6.1] only an unrevealed unit takes a Dummy, and only one of its army's Force Pool that is
 * available; a revealed unit's Cadres are face-up */
static void test_n20_16_6_1_dummy_only_unrevealed_and_available(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = f_empty(&d, 9, N20_FRENCH);
    s->opts |= N20_OPT_BREAKDOWN;
    int r = t_place(s, "REILLE", 1505);
    s->u[r].hidden = 0;
    brt_reject err;
    assert_false(t_legal_has(s, N20_FRENCH, "breakdown REILLE dummy"));
    assert_int_equal(f_order(s, N20_FRENCH, "breakdown REILLE dummy", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "16.6.1");
    assert_true(strstr(err.message, "revealed") != NULL);
    assert_int_equal(f_order(s, N20_FRENCH, "breakdown REILLE", &d, NULL, &err), 0);
    assert_int_equal(s->u[n20_unit_find(s, "CADRE-F1")].hidden, 0);
    assert_int_equal(s->u[n20_unit_find(s, "CADRE-F2")].hidden, 0);
    assert_int_equal(s->u[n20_unit_find(s, "F-DUMMY-1")].where, N20_U_OUT);
    free(s);

    /* both French Dummies on the map: none available */
    t_dice_init(&d, 1);
    s = f_empty(&d, 9, N20_FRENCH);
    s->opts |= N20_OPT_BREAKDOWN;
    t_place(s, "REILLE", 1505);
    t_place(s, "F-DUMMY-1", 1510);
    t_place(s, "F-DUMMY-2", 1512);
    assert_true(t_legal_has(s, N20_FRENCH, "breakdown REILLE"));
    assert_false(t_legal_has(s, N20_FRENCH, "breakdown REILLE dummy"));
    assert_int_equal(f_order(s, N20_FRENCH, "breakdown REILLE dummy", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "16.6.1");
    assert_true(strstr(err.message, "Dummy") != NULL);
    free(s);

    /* the Allied player's Prussian unit takes a Prussian Dummy */
    t_dice_init(&d, 1);
    s = f_empty(&d, 9, N20_ALLIED);
    s->opts |= N20_OPT_BREAKDOWN;
    t_place(s, "PIRCH", 1505);
    assert_int_equal(f_order(s, N20_ALLIED, "breakdown PIRCH dummy", &d, NULL, &err), 0);
    assert_int_equal(s->u[n20_unit_find(s, "P-DUMMY-1")].hex, n20_hex(1505));
    assert_int_equal(s->u[n20_unit_find(s, "A-DUMMY-1")].where, N20_U_OUT);
    free(s);

    /* without fog-of-war [16.1] there is no Dummy */
    t_dice_init(&d, 1);
    s = t_empty(&d, 9, N20_FRENCH);
    s->opts |= N20_OPT_BREAKDOWN;
    t_place(s, "REILLE", 1505);
    assert_false(t_legal_has(s, N20_FRENCH, "breakdown REILLE dummy"));
    assert_int_equal(t_order(s, N20_FRENCH, "breakdown REILLE dummy", &d, NULL, &err), -1);
    assert_string_equal(err.rule, "16.6.1");
    free(s);
}

/* [16.6.1] a unit breaking down in an enemy ZOC: its pieces may not leave it [6.8], so the three may
 * not be unstacked; revealing the Dummy (removed at once [16.1.3]) is always listed, and then the two
 * Cadres end the phase together and combine [16.6.2] (rulings R-16.6.1-dummy) */
static void test_n20_16_6_1_dummy_stack_in_enemy_zoc(void **st) {
    (void)st;
    t_dice d;
    t_dice_init(&d, 1);
    n20_state *s = f_empty(&d, 9, N20_FRENCH);
    s->opts |= N20_OPT_BREAKDOWN;
    int r = t_place(s, "REILLE", 709);
    t_place(s, "ZIETEN", 710);
    assert_true(n20_dir(s->sc, n20_hex(709), n20_hex(710)) >= 0);
    f_rec rec = {0};
    brt_reject err;
    assert_int_equal(f_order(s, N20_FRENCH, "breakdown REILLE dummy", &d, &rec, &err), 0);
    assert_int_equal(f_order(s, N20_FRENCH, "end", &d, &rec, &err), -1);
    assert_string_equal(err.rule, "6.9");
    s->fm[N20_ARMY_FRENCH] = 1; /* already Force Marched [12.2.1]: no other order than the reveals */
    brt_buf b;
    buf_init(&b);
    n20_legal(s, N20_FRENCH, &b);
    size_t pos = 0;
    const uint8_t *it;
    size_t len;
    int moves = 0, reveals = 0;
    while (buf_next_item(&b, &pos, &it, &len) == 1) {
        brt_buf tx;
        buf_init(&tx);
        n20_order_format(it, len, &tx);
        buf_append(&tx, "", 1);
        moves += strncmp((char *)tx.data, "move ", 5) == 0 || strcmp((char *)tx.data, "end") == 0;
        reveals += strncmp((char *)tx.data, "reveal ", 7) == 0;
        buf_free(&tx);
    }
    buf_free(&b);
    assert_int_equal(moves, 0);   /* no move [6.8], no end [6.9] */
    assert_int_equal(reveals, 3); /* CADRE-F1, CADRE-F2, F-DUMMY-1: nothing else is listed */
    buf_init(&b);
    assert_int_equal(n20_legal(s, N20_FRENCH, &b), 3);
    buf_free(&b);
    assert_true(t_legal_has(s, N20_FRENCH, "reveal F-DUMMY-1"));
    assert_int_equal(f_order(s, N20_FRENCH, "reveal F-DUMMY-1", &d, &rec, &err), 0);
    assert_int_equal(s->u[n20_unit_find(s, "F-DUMMY-1")].where, N20_U_OUT);
    assert_true(t_legal_has(s, N20_FRENCH, "end"));
    assert_int_equal(f_order(s, N20_FRENCH, "end", &d, &rec, &err), 0);
    assert_int_equal(s->u[r].where, N20_U_MAP); /* the Cadres combined back into REILLE */
    assert_int_equal(s->u[r].hex, n20_hex(709));
    assert_int_equal(rec.leaks, 0);
    free(s);
}

static void s_check_bytes(const n20_state *s, int seat, const uint8_t *p, size_t n, const char *what,
                          uint64_t seed, int step) {
    char w[N20_NAME];
    if (s_leaks(s, seat, p, n, w, sizeof w))
        fail_msg("seed %llu step %d: %s of seat %d names hidden %s", (unsigned long long)seed, step, what, seat, w);
}

/* every byte a seat may get: its view (message and text), its legal list (bytes and text) */
static void s_check_seat(const n20_state *s, int seat, uint64_t seed, int step) {
    brt_buf b;
    buf_init(&b);
    n20_view(s, seat, &b);
    s_check_bytes(s, seat, b.data, b.len, "view", seed, step);
    /* [16.1.3] every hidden enemy entry is the same "a unit": nothing tells a Dummy from a real one */
    N20__V1__View *v = n20__v1__view__unpack(NULL, b.len, b.data);
    assert_non_null(v);
    for (size_t i = 0; i < v->n_units; i++) {
        const N20__V1__UnitView *u = v->units[i];
        if (strcmp(u->side, n20_side_name(seat)) != 0) assert_string_not_equal(u->type, "dummy");
        if (u->id[0] != '@') continue;
        assert_string_equal(u->type, "hidden");
        assert_string_equal(u->army, "");
        assert_int_equal(u->strength, 0);
        assert_int_equal(u->allowance, 0);
        assert_int_equal(u->arrival_turn, 0);
    }
    n20__v1__view__free_unpacked(v, NULL);
    buf_reset(&b);
    n20_view_text(s, seat, &b);
    s_check_bytes(s, seat, b.data, b.len, "view text", seed, step);
    buf_reset(&b);
    n20_legal(s, (unsigned)seat, &b);
    s_check_bytes(s, seat, b.data, b.len, "legal list", seed, step);
    size_t pos = 0;
    const uint8_t *it;
    size_t len;
    while (buf_next_item(&b, &pos, &it, &len) == 1) {
        brt_buf t;
        buf_init(&t);
        n20_order_format(it, len, &t);
        s_check_bytes(s, seat, t.data, t.len, "legal order text", seed, step);
        buf_free(&t);
    }
    buf_free(&b);
}

/* an illegal order from the deciding seat, on a copy: its rejection must not name a hidden unit */
static int s_rejections_checked, s_dummies_seen;

static void s_check_reject(const n20_state *s, int seat, uint64_t *rng, const t_dice *d, uint64_t seed, int step) {
    int hidden[N20_MAX_UNITS], nh = 0;
    for (int u = 0; u < s->sc->nunits; u++)
        if (n20_fog_hidden_from(s, u, seat)) hidden[nh++] = u;
    int own = -1;
    for (int u = 0; u < s->sc->nunits; u++)
        if (n20_side_of(s, u) == seat && s->u[u].where == N20_U_MAP) own = u;
    char text[160];
    int h = nh ? hidden[t_rng(rng) % (uint64_t)nh] : -1;
    char handle[N20_NAME] = "@0101";
    if (h >= 0 && s->u[h].where == N20_U_MAP) snprintf(handle, sizeof handle, "@%04u", n20_xxyy(s->u[h].hex));
    const char *ownid = own >= 0 ? n20_uid(s, own) : "REILLE";
    switch (t_rng(rng) % 8) {
    case 0: snprintf(text, sizeof text, "move %s 0101", h >= 0 ? n20_uid(s, h) : "X"); break;
    case 1: snprintf(text, sizeof text, "move %s 0101", handle); break;
    case 2: snprintf(text, sizeof text, "declare %s -> %s", ownid, handle); break;
    case 3: snprintf(text, sizeof text, "declare %s -> %s", handle, ownid); break;
    case 4: snprintf(text, sizeof text, "countercharge %s -> %s", ownid, handle); break;
    case 5: snprintf(text, sizeof text, "retreat %s 0101", handle); break;
    case 6: snprintf(text, sizeof text, "losses %s", handle); break;
    default: snprintf(text, sizeof text, "advance %s 0101", handle); break;
    }
    n20_state *c = malloc(sizeof *c);
    memcpy(c, s, sizeof *c);
    t_dice d2 = *d;
    d2.d.source_ctx = &d2;
    f_rec rec = {0};
    brt_reject err;
    memset(&err, 0, sizeof err);
    int rc = f_order(c, (unsigned)seat, text, &d2, &rec, &err);
    if (rc == -1) {
        s_rejections_checked++;
        s_check_bytes(s, seat, (const uint8_t *)err.message, strlen(err.message), "rejection", seed, step);
        assert_int_equal(rec.n[0] + rec.n[1] + rec.nlog, 0); /* nothing emitted */
    }
    if (rc == 0 && rec.leaks) fail_msg("seed %llu: %s", (unsigned long long)seed, rec.leak);
    free(c);
}

/* the game s_play_fog plays: fog-of-war in the Standard Scenario, or [17.1.1] the secret schedule of
 * sambre-crossing (with or without fog-of-war) in the Extended Campaign */
static const char *s_fog_scenario = "waterloo20-standard";
static uint32_t s_fog_opts = N20_OPT_FOG;
static int s_schedule_hidden; /* steps at which a scheduled French unit was hidden from the Allied seat */

/* one game of random legal orders with fog-of-war; returns the number of orders, fills the hash */
/* 1 if a legal item is `breakdown UNIT dummy` [16.6.1] */
static int s_is_breakdown_dummy(const uint8_t *item, size_t len) {
    if (len < 2 || item[0] != ((N20__V1__ORDER__KIND_BREAKDOWN << 3) | 2)) return 0; /* a cheap first look */
    N20__V1__Order *o = n20__v1__order__unpack(NULL, len, item);
    int r = o && o->kind_case == N20__V1__ORDER__KIND_BREAKDOWN && o->breakdown->dummy;
    if (o) n20__v1__order__free_unpacked(o, NULL);
    return r;
}

static int s_breakdown_dummies; /* [16.6.1] breakdowns with a Dummy played by s_play_fog */

/* opts: the game options besides fog-of-war; with `breakdown` [16.6] the players pick a listed
 * `breakdown UNIT dummy` half of the time, so that the stacks of [16.6.1] are seen */
static int s_play_fog_opts(uint64_t seed, uint32_t opts, int check_all, int check_leaks, uint8_t hash[32],
                           int *ended) {
    t_dice d;
    t_dice_init(&d, seed);
    const n20_scenario *sc = n20_scenario_get(s_fog_scenario);
    n20_state *s = n20_state_new(sc);
    f_rec *rec = calloc(1, sizeof *rec);
    rec->s = s;
    n20_sink sink = {f_emit_to, rec};
    n20_out out = {n20_sink_emit, &sink};
    assert_int_equal(n20_setup(s, &d.d, &out, s_fog_opts | opts, NULL), 0);
    n20_run(s, &d.d, &out);
    uint64_t rng = seed * 2654435761u + 7;
    int steps = 0, revealed = 0;
    brt_buf legal;
    buf_init(&legal);
    while (!s->over && steps < 20000) {
        int seat = n20_pending_seat(s);
        assert_true(seat == 0 || seat == 1);
        if (check_leaks && steps == 0) { /* the checker finds the ids in the log's view */
            brt_buf all;
            buf_init(&all);
            n20_view_text(s, -1, &all);
            char w[N20_NAME];
            if (s_fog_opts & N20_OPT_FOG) assert_true(s_leaks(s, 0, all.data, all.len, w, sizeof w));
            assert_true(s_leaks(s, 1, all.data, all.len, w, sizeof w));
            buf_free(&all);
        }
        for (int u = 0; u < sc->nunits; u++)
            if ((s->u[u].flags & N20_UF_SCHEDULED) && s->u[u].arrive && n20_fog_hidden_from(s, u, N20_ALLIED)) {
                s_schedule_hidden++;
                break;
            }
        if (check_leaks) {
            s_check_seat(s, 0, seed, steps);
            s_check_seat(s, 1, seed, steps);
            s_check_reject(s, seat, &rng, &d, seed, steps);
        }
        buf_reset(&legal);
        int n = n20_legal(s, (unsigned)seat, &legal);
        if (n <= 0) {
            brt_buf vt;
            buf_init(&vt);
            n20_view_text(s, -1, &vt);
            buf_append(&vt, "", 1);
            if (getenv("N20_FOG_DEBUG")) fprintf(stderr, "%s\n", (char *)vt.data);
            buf_free(&vt);
            fail_msg("seed %llu: no legal order for seat %d (phase %d)", (unsigned long long)seed, seat, s->phase);
        }
        int pick = (int)(t_rng(&rng) % (uint64_t)n);
        if (opts & N20_OPT_BREAKDOWN) {
            size_t p2 = 0;
            const uint8_t *it;
            size_t l2;
            int k = 0, bd = -1;
            while (buf_next_item(&legal, &p2, &it, &l2) == 1) {
                if (bd < 0 && s_is_breakdown_dummy(it, l2)) bd = k;
                k++;
            }
            if (bd >= 0 && t_rng(&rng) % 2 == 0) {
                pick = bd;
                s_breakdown_dummies++;
            }
        }
        char tag[96];
        snprintf(tag, sizeof tag, "seed %llu", (unsigned long long)seed);
        size_t clen;
        const uint8_t *chosen = t_choose(s, (unsigned)seat, &legal, pick, check_all, &d, NULL, tag, &clen);
        assert_non_null(chosen);
        int n0 = rec->n[0], n1 = rec->n[1];
        brt_reject err;
        if (n20_apply(s, (unsigned)seat, chosen, clen, &d.d, &out, &err) != 0)
            fail_msg("seed %llu: chosen order rejected: %s", (unsigned long long)seed, err.message);
        /* [16.1] each seat gets one copy of every event: the counts tell nothing */
        assert_int_equal(rec->n[0] - n0, rec->n[1] - n1);
        if (rec->leaks) fail_msg("seed %llu step %d: %s", (unsigned long long)seed, steps, rec->leak);
        steps++;
        for (int u = 0; u < sc->nunits; u++)
            if (sc->units[u].type == N20_DUMMY && s->u[u].where == N20_U_MAP) s_dummies_seen++;
    }
    for (int u = 0; u < sc->nunits; u++)
        if (s->u[u].where != N20_U_OUT && !s->u[u].hidden) revealed++;
    buf_free(&legal);
    *ended = s->over;
    t_hash(s, hash);
    free(rec);
    free(s);
    return steps + 0 * revealed;
}

static int s_play_fog(uint64_t seed, int check_all, int check_leaks, uint8_t hash[32], int *ended) {
    return s_play_fog_opts(seed, 0, check_all, check_leaks, hash, ended);
}

/* [16.6.1] [16.1] random games with `breakdown`: the Cadre and Dummy stacks of unrevealed units leak
 * nothing (views, legal lists, events, rejections), every listed order is accepted, replay is identical */
static void test_n20_16_6_1_random_breakdown_with_fog_leaks_nothing(void **st) {
    (void)st;
    s_breakdown_dummies = 0;
    s_dummies_seen = 0;
    for (uint64_t seed = 201; seed < 205; seed++) {
        uint8_t h1[32], h2[32];
        int e1, e2;
        s_play_fog_opts(seed, N20_OPT_BREAKDOWN, 0, 1, h1, &e1); /* the leak checks draw on the rng */
        assert_true(e1);
        int n1 = s_play_fog_opts(seed, N20_OPT_BREAKDOWN, seed == 201, 0, h1, &e1);
        assert_true(e1);
        int n2 = s_play_fog_opts(seed, N20_OPT_BREAKDOWN, 0, 0, h2, &e2);
        assert_int_equal(n1, n2);
        assert_memory_equal(h1, h2, 32);
    }
    assert_true(s_breakdown_dummies > 0);
    assert_true(s_dummies_seen > 0);
}

/* [16.1] nothing a seat receives names a hidden enemy unit: views, legal lists, events, rejections */
static void test_n20_16_1_random_games_leak_nothing(void **st) {
    (void)st;
    s_rejections_checked = 0;
    s_dummies_seen = 0;
    for (uint64_t seed = 101; seed < 107; seed++) {
        uint8_t h[32];
        int ended;
        s_play_fog(seed, 0, 1, h, &ended);
        assert_true(ended);
    }
    assert_true(s_rejections_checked > 100);
    assert_true(s_dummies_seen > 0); /* the games did put [16.1.3] Dummy units on the map */
}

/* random play with fog-of-war: apply() accepts every listed order, games end, replay is identical */
static void test_n20_16_1_random_games_conform_and_replay(void **st) {
    (void)st;
    const char *lg = getenv("BERTHIER_LONG");
    int games = lg && *lg == '1' ? 400 : 10;
    for (int g = 0; g < games; g++) {
        uint8_t h1[32], h2[32];
        int e1, e2;
        int n1 = s_play_fog((uint64_t)g + 1, g < 3, 0, h1, &e1);
        assert_true(e1); /* [15.0] */
        int n2 = s_play_fog((uint64_t)g + 1, 0, 0, h2, &e2);
        assert_int_equal(n1, n2);
        assert_memory_equal(h1, h2, 32);
    }
}

/* [17.1.1] the French player's secret schedule: nothing the Allied seat receives (views, legal
 * lists, events, rejections) names a unit on it until it arrives; each seat gets one copy of every
 * event. Without fog-of-war, and with it. */
static void test_n20_17_1_1_random_games_leak_no_schedule(void **st) {
    (void)st;
    const uint32_t opts[] = {N20_OPT_SAMBRE | N20_OPT_BREAKDOWN | N20_OPT_LEADERS,
                             N20_OPT_SAMBRE | N20_OPT_BREAKDOWN | N20_OPT_FOG | N20_OPT_BERTHIER_BACK};
    s_fog_scenario = "waterloo20-extended";
    s_rejections_checked = 0;
    s_schedule_hidden = 0;
    for (int k = 0; k < 2; k++) {
        s_fog_opts = opts[k];
        for (uint64_t seed = 201; seed < 204; seed++) {
            uint8_t h[32];
            int ended;
            s_play_fog(seed, 0, 1, h, &ended);
            assert_true(ended);
        }
    }
    s_fog_scenario = "waterloo20-standard";
    s_fog_opts = N20_OPT_FOG;
    assert_true(s_rejections_checked > 100);
    assert_true(s_schedule_hidden > 30); /* the checks ran while the schedule was secret */
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_n20_16_1_setup_every_unit_face_down),
        cmocka_unit_test(test_n20_16_1_view_shows_hidden_enemy_as_a_unit),
        cmocka_unit_test(test_n20_16_1_view_hidden_units_in_hex_order),
        cmocka_unit_test(test_n20_16_1_events_full_to_owner_redacted_to_enemy),
        cmocka_unit_test(test_n20_16_1_spectators_copy_names_hidden_unit_as_a_unit),
        cmocka_unit_test(test_n20_9_2_declared_event_names_sixteen_units_per_party),
        cmocka_unit_test(test_n20_16_1_event_masks),
        cmocka_unit_test(test_n20_16_1_hidden_enemy_named_by_hex_only),
        cmocka_unit_test(test_n20_16_1_1_declared_battle_reveals_every_unit_involved),
        cmocka_unit_test(test_n20_16_1_1_face_up_cavalry_scouts_at_end_of_movement),
        cmocka_unit_test(test_n20_16_1_1_no_scouting_at_night),
        cmocka_unit_test(test_n20_16_1_1_committing_the_guard_reveals_it),
        cmocka_unit_test(test_n20_16_1_1_owner_reveals_own_unit_at_will),
        cmocka_unit_test(test_n20_16_1_1_hidden_cavalry_prevents_disengagement),
        cmocka_unit_test(test_n20_16_1_2_reconceal_at_own_night_operations),
        cmocka_unit_test(test_n20_16_1_3_rallied_unit_placed_hidden),
        cmocka_unit_test(test_n20_16_1_3_dummy_enters_with_reinforcements),
        cmocka_unit_test(test_n20_16_1_3_dummy_enters_with_rallied_unit),
        cmocka_unit_test(test_n20_16_1_3_dummy_indistinguishable_in_view),
        cmocka_unit_test(test_n20_16_1_3_attacked_dummy_removed_no_combat),
        cmocka_unit_test(test_n20_16_1_3_dummy_attack_fulfils_obligation_and_scouts),
        cmocka_unit_test(test_n20_16_1_3_dummies_placed_at_night),
        cmocka_unit_test(test_n20_16_1_3_owner_reveals_dummy_removed),
        cmocka_unit_test(test_n20_16_6_1_breakdown_adds_dummy_under_fog),
        cmocka_unit_test(test_n20_16_6_1_dummy_only_unrevealed_and_available),
        cmocka_unit_test(test_n20_16_6_1_dummy_stack_in_enemy_zoc),
        cmocka_unit_test(test_n20_16_1_random_games_leak_nothing),
        cmocka_unit_test(test_n20_16_1_random_games_conform_and_replay),
        cmocka_unit_test(test_n20_16_6_1_random_breakdown_with_fog_leaks_nothing),
        cmocka_unit_test(test_n20_17_1_1_random_games_leak_no_schedule),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
