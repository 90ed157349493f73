/*
 * test_wnlb_view.c - the public part of the wnlb View (rules/wnlb/view.c): the squares with
 * their terrain and side features [8.3], the commanders' squares [12.0], the chateaux with the
 * CDP they have left [10.0], the scenario's VP squares with their owners and values [13.2]
 * [13.3], the battle being fought [9.0] and the scores so far [13.3]; and the same in the text
 * view; the picture's markers (facing, Reduced, Disorder, Moved, Rally, commanders, VP owners)
 * and its battle whose cards are sealed [9.3]. The hands' side of the View
 * is test_wnlb_hidden.c.
 */
#include "wnlb_t.h"

static const Wnlb__V1__Place *s_place(Wnlb__V1__Place **p, size_t n, const char *name) {
    for (size_t i = 0; i < n; i++)
        if (strcmp(p[i]->name, name) == 0) return p[i];
    return NULL;
}

static char *s_text(const t_fx *f, int vp) {
    brt_buf b;
    buf_init(&b);
    assert_int_equal(f->rs->view_text(f->s, vp, &b), 0);
    buf_append(&b, "", 1);
    return (char *)b.data;
}

/* [3.1] [13.3] the Full Battle Game at set-up, as the spectators see it */
static void test_wnlb_view_public_board_full(void **st) {
    (void)st;
    t_fx *f = t_new("full", 3, 31);
    const wnlb_scenario *sc = f->s->sc;
    Wnlb__V1__View *v = t_view(f, BRT_VIEW_PUBLIC);
    /* [8.3] every square, with its terrain and four sides */
    assert_int_equal(v->n_squares, (size_t)sc->rows * sc->cols);
    int woods = 0;
    for (size_t i = 0; i < v->n_squares; i++) {
        int r, c;
        assert_int_equal(wnlb_square_parse(v->squares[i]->id, &r, &c), 0);
        assert_int_equal(v->squares[i]->terrain, sc->terrain[r][c]);
        assert_int_equal(v->squares[i]->n_sides, 4);
        for (int d = 0; d < 4; d++) assert_int_equal(v->squares[i]->sides[d], sc->side[r][c][d]);
        woods += v->squares[i]->terrain == WNLB_WOODS;
    }
    assert_true(woods > 0);
    /* [12.0] Napoleon and Wellington where [3.1] sets them up */
    assert_int_equal(v->n_commanders, 2);
    for (int c = 0; c < 2; c++) {
        char sq[8];
        wnlb_square_name(sc->cmd_row[c], sc->cmd_col[c], sq, sizeof sq);
        assert_string_equal(v->commanders[c], sq);
    }
    /* [10.0] three chateaux with their printed CDP */
    assert_int_equal(v->n_chateaux, sc->n_chateaux);
    assert_int_equal(v->n_chateaux, 3);
    for (size_t i = 0; i < v->n_chateaux; i++) assert_int_equal(v->chateaux[i]->cdp, sc->chateaux[i].cdp);
    /* [3.1] [13.3] Hougoumont, La Haye Sainte, Mt St Jean and the three Plancenoit squares, all Allied */
    assert_int_equal(v->n_vp_squares, 6);
    for (size_t i = 0; i < v->n_vp_squares; i++) assert_int_equal(v->vp_squares[i]->owner, WNLB_SIDE_ALLIED);
    const Wnlb__V1__Place *msj = s_place(v->vp_squares, v->n_vp_squares, "mt-st-jean");
    assert_non_null(msj);
    assert_int_equal(msj->french_vp, 15); /* [13.3] the table */
    assert_int_equal(msj->allied_vp, 0);
    /* [13.3] the scores so far: the Allies own every VP square (10 + 5 + 0 + 3 x 2) */
    assert_int_equal(v->n_scores, 2);
    assert_int_equal(v->scores[0], 0);
    assert_int_equal(v->scores[1], 21);
    assert_string_equal(v->battle_target, "");
    assert_int_equal(v->n_battle_attackers, 0);
    wnlb__v1__view__free_unpacked(v, NULL);
    t_free(f);
}

/* [13.2] the Short Game's VP squares are the three chateaux and Mt St Jean; a French unit that
 * enters one owns it [13.3] "the last player who has entered it", and the view says so */
static void test_wnlb_view_vp_owner_follows_entry(void **st) {
    (void)st;
    t_fx *f = t_new("short", 2, 32);
    Wnlb__V1__View *v = t_view(f, 1);
    assert_int_equal(v->n_vp_squares, 4);
    assert_non_null(s_place(v->vp_squares, v->n_vp_squares, "hougoumont"));
    assert_non_null(s_place(v->vp_squares, v->n_vp_squares, "mt-st-jean"));
    wnlb__v1__view__free_unpacked(v, NULL);
    const wnlb_scenario *sc = f->s->sc;
    size_t k = 0;
    while (k < sc->n_vp && strcmp(sc->vp[k].name, "hougoumont") != 0) k++;
    assert_true(k < sc->n_vp);
    int u = wnlb_unit_at(f->s, sc->vp[k].row, sc->vp[k].col);
    if (u >= 0) wnlb_place(f->s, u, -1, -1); /* the square emptied */
    wnlb_place(f->s, t_unit(f, WNLB_FR, WNLB_INF, 0), sc->vp[k].row, sc->vp[k].col);
    v = t_view(f, BRT_VIEW_PUBLIC);
    const Wnlb__V1__Place *h = s_place(v->vp_squares, v->n_vp_squares, "hougoumont");
    assert_non_null(h);
    assert_int_equal(h->owner, WNLB_SIDE_FRENCH);
    const Wnlb__V1__Place *c = s_place(v->chateaux, v->n_chateaux, "hougoumont");
    assert_non_null(c);
    assert_int_equal(c->owner, WNLB_SIDE_FRENCH);
    wnlb__v1__view__free_unpacked(v, NULL);
    char *t = s_text(f, BRT_VIEW_PUBLIC);
    assert_non_null(strstr(t, "VP square hougoumont: French"));
    assert_non_null(strstr(t, "VP square mt-st-jean: Allied"));
    free(t);
    t_free(f);
}

/* [10.0] a chateau's CDP as they are spent; [9.0] the battle being fought, its cards sealed [9.3] */
static void test_wnlb_view_cdp_and_battle(void **st) {
    (void)st;
    t_fx *f = t_new("short", 2, 33);
    f->s->cdp[0] = 1;
    int d = t_unit(f, WNLB_BR, WNLB_INF, 0), a1 = t_unit(f, WNLB_FR, WNLB_INF, 0), a2 = t_unit(f, WNLB_FR, WNLB_INF, 1);
    f->s->battle.target = (int8_t)d;
    f->s->battle.n_att = 2;
    f->s->battle.att[0] = (int8_t)a1;
    f->s->battle.att[1] = (int8_t)a2;
    f->s->battle.submitted[0] = 1;
    f->s->battle.n_cards[0] = 1;
    f->s->battle.cards[0][0] = 0;
    Wnlb__V1__View *v = t_view(f, 1);
    assert_int_equal(v->chateaux[0]->cdp, 1);
    assert_string_equal(v->battle_target, f->s->sc->units[d].id);
    assert_int_equal(v->n_battle_attackers, 2);
    assert_string_equal(v->battle_attackers[0], f->s->sc->units[a1].id);
    assert_string_equal(v->battle_attackers[1], f->s->sc->units[a2].id);
    wnlb__v1__view__free_unpacked(v, NULL);
    char *t = s_text(f, 1);
    char want[96];
    snprintf(want, sizeof want, "chateau %s CDP 1 of %u", f->s->sc->chateaux[0].name, f->s->sc->chateaux[0].cdp);
    assert_non_null(strstr(t, want));
    snprintf(want, sizeof want, "battle: %s attacked by %s %s", f->s->sc->units[d].id, f->s->sc->units[a1].id,
             f->s->sc->units[a2].id);
    assert_non_null(strstr(t, want));
    free(t);
    /* [9.3] the picture: the attacker's own chosen cards to the French seat only */
    for (int vp = BRT_VIEW_PUBLIC; vp < 2; vp++) {
        if (vp == BRT_VIEW_ALL) continue;
        brt_buf svg;
        buf_init(&svg);
        assert_int_equal(f->rs->render(f->s, vp, NULL, &svg), 0);
        buf_append(&svg, "", 1);
        const char *own = strstr((const char *)svg.data, "own-battle-cards");
        if (vp == 0) {
            assert_non_null(own);
            snprintf(want, sizeof want, "(sealed): #%u<", f->s->sc->cards[0].id);
            assert_non_null(strstr(own, want));
        } else {
            assert_null(own);
        }
        assert_non_null(strstr((const char *)svg.data, "sealed until both sides have chosen"));
        assert_non_null(strstr((const char *)svg.data, "attacker: chosen, defender: choosing")); /* public */
        buf_free(&svg);
    }
    t_free(f);
}

static char *s_svg(const t_fx *f, int vp) {
    brt_buf b;
    buf_init(&b);
    assert_int_equal(f->rs->render(f->s, vp, NULL, &b), 0);
    buf_append(&b, "", 1);
    return (char *)b.data;
}

/* a copy of the text from AT up to (not with) the first END after it, which must be there */
static char *s_cut(const char *at, const char *end_mark) {
    const char *end = strstr(at, end_mark);
    assert_non_null(end);
    size_t n = (size_t)(end - at);
    char *out = malloc(n + 1);
    assert_non_null(out);
    memcpy(out, at, n);
    out[n] = 0;
    return out;
}

/* the <g class="counter..." element of unit u in the picture, cut at its end, or fails */
static char *s_counter_of(const char *svg, const char *id) {
    char key[48];
    snprintf(key, sizeof key, "id=\"u-%s\"", id);
    const char *at = strstr(svg, key);
    if (!at) fail_msg("no counter for %s in the picture", id);
    while (at > svg && strncmp(at, "<g class=\"counter", 17) != 0) at--;
    return s_cut(at, "</g>\n");
}

/* the picture's markers (docs/render.md): a counter's facing [8.1], its Reduced side [9.1],
 * Disorder [9.5], Moved [8.0] and Rally [11.6]; the commanders [12.0]; a VP square in the colour
 * of its owner [13.2]; and the same markers in the text view */
static void test_wnlb_view_picture_markers(void **st) {
    (void)st;
    t_fx *f = t_new("short", 2, 34);
    int a = t_unit(f, WNLB_FR, WNLB_INF, 0), b = t_unit(f, WNLB_BR, WNLB_INF, 0);
    wnlb_unit *ua = &f->s->units[a], *ub = &f->s->units[b];
    ua->facing = WNLB_E;
    ua->reduced = 1;
    ua->disordered = 1;
    ua->moved = 1;
    ub->rallied = 1;
    const wnlb_scenario *sc = f->s->sc;
    size_t k = 0;
    while (k < sc->n_vp && !sc->vp[k].short_game) k++;
    assert_true(k < sc->n_vp);
    f->s->vp_owner[k] = WNLB_SIDE_FRENCH;
    char *svg = s_svg(f, BRT_VIEW_PUBLIC);
    char *ca = s_counter_of(svg, sc->units[a].id), *cb = s_counter_of(svg, sc->units[b].id);
    assert_non_null(strstr(ca, "class=\"counter reduced\""));
    assert_non_null(strstr(ca, "data-facing=\"east\""));
    assert_non_null(strstr(ca, "class=\"disordered\""));
    assert_non_null(strstr(ca, "class=\"moved\""));
    assert_null(strstr(ca, "class=\"rallied\""));
    assert_non_null(strstr(cb, "class=\"rallied\""));
    assert_null(strstr(cb, "class=\"disordered\""));
    assert_null(strstr(cb, "class=\"moved\""));
    assert_null(strstr(cb, "reduced"));
    for (int c = 0; c < 2; c++) {
        char sq[8], want[64];
        wnlb_square_name(f->s->cmd_row[c], f->s->cmd_col[c], sq, sizeof sq);
        snprintf(want, sizeof want, "data-commander=\"%s\" data-square=\"%s\"", c ? "Wellington" : "Napoleon", sq);
        assert_non_null(strstr(svg, want));
    }
    int french = 0, allied = 0;
    static const char vp_mark[] = "<g class=\"vp\" data-owner=\"";
    for (const char *p = svg; (p = strstr(p, vp_mark)) != NULL; p++) {
        if (!strncmp(p + strlen(vp_mark), "French", 6)) french++;
        if (!strncmp(p + strlen(vp_mark), "Allied", 6)) allied++;
    }
    assert_int_equal(french, 1);
    assert_int_equal(allied, 3); /* [13.2] four VP squares */
    /* the text view carries the same markers */
    char *txt = s_text(f, BRT_VIEW_PUBLIC), line[96];
    snprintf(line, sizeof line, "%s ", sc->units[a].id);
    const char *la = strstr(txt, line);
    assert_non_null(la);
    assert_true(strncmp(strstr(la, "facing E"), "facing E reduced disordered moved\n", 34) == 0);
    snprintf(line, sizeof line, "%s ", sc->units[b].id);
    const char *lb = strstr(txt, line);
    assert_non_null(lb);
    snprintf(line, sizeof line, "facing %c rallied\n", "NESW"[ub->facing & 3]);
    assert_true(strncmp(strstr(lb, "facing "), line, strlen(line)) == 0);
    free(txt);
    free(ca);
    free(cb);
    free(svg);
    t_free(f);
}

/* the picture of f's state with the order o given as the last one */
static char *s_svg_after(const t_fx *f, int vp, const wnlb_order *o) {
    brt_buf ob, b;
    buf_init(&ob);
    buf_init(&b);
    assert_int_equal(wnlb_order_encode(f->s, o, &ob), 0);
    size_t pos = 0, len = 0;
    const uint8_t *item = NULL;
    assert_int_equal(buf_next_item(&ob, &pos, &item, &len), 1);
    brt_render_ctx ctx = {item, len, 0, NULL};
    assert_int_equal(f->rs->render(f->s, vp, &ctx, &b), 0);
    buf_append(&b, "", 1);
    buf_free(&ob);
    return (char *)b.data;
}

/* the <g class="last-move" ...>...</g> of a picture, or NULL */
static char *s_last_move(const char *svg) {
    const char *at = strstr(svg, "<g class=\"last-move\" data-unit");
    if (!at) return NULL;
    return s_cut(at, "</g>");
}

/* [9.6] R-wnlb-9.6-move-stops: French infantry in I-6 facing north ordered ahead three squares,
 * then west and ahead once more; British cavalry in E-6. The third step ends in F-6, next to the
 * cavalry: the window opens and the rest of the order is not made. The last move's path in the
 * picture (docs/render.md) is the steps made, I-6 to F-6 (four points, the same as the path of the
 * order of those three steps alone), not the whole order walked back from F-6 */
static void test_wnlb_9_6_picture_path_stops_at_window(void **st) {
    (void)st;
    t_board bd;
    t_fx *f = t_new_blank(&bd, "short", 2, 96);
    int inf = t_place(f, WNLB_FR, WNLB_INF, 0, "I-6", WNLB_N);
    (void)t_place(f, WNLB_BR, WNLB_CAV, 0, "E-6", WNLB_S);
    t_empty_hand(f, WNLB_FR);
    t_move_card(f, 0, WNLB_FR, 6);
    wnlb_order mv = t_o(WNLB_O_MOVE), made = t_o(WNLB_O_MOVE);
    mv.unit = made.unit = inf;
    static const uint8_t steps[] = {WNLB_STEP_FWD, WNLB_STEP_FWD, WNLB_STEP_FWD, WNLB_W, WNLB_STEP_FWD};
    mv.n_steps = 5;
    memcpy(mv.steps, steps, sizeof steps);
    made.n_steps = 3;
    memcpy(made.steps, steps, 3);
    if (t_order(f, 0, &mv) != 0) fail_msg("move refused: [%s] %s", f->err.rule, f->err.message);
    assert_int_equal(f->s->phase, WNLB_PH_CAV_RETREAT);
    int r, c;
    t_sq("F-6", &r, &c);
    assert_int_equal(f->s->units[inf].row, r);
    assert_int_equal(f->s->units[inf].col, c);
    char *svg = s_svg_after(f, BRT_VIEW_PUBLIC, &mv), *ref = s_svg_after(f, BRT_VIEW_PUBLIC, &made);
    char *path = s_last_move(svg), *want = s_last_move(ref);
    assert_non_null(path);
    assert_non_null(want);
    int circles = 0;
    for (const char *p = path; (p = strstr(p, "<circle")) != NULL; p++) circles++;
    assert_int_equal(circles, 4); /* I-6, H-6, G-6, F-6 */
    assert_string_equal(path, want);
    free(path);
    free(want);
    free(svg);
    free(ref);
    t_free(f);
}

static size_t s_vp_named(const t_fx *f, const char *name) {
    for (size_t i = 0; i < f->s->sc->n_vp; i++)
        if (strcmp(f->s->sc->vp[i].name, name) == 0) return i;
    fail_msg("no VP square %s", name);
    return 0;
}

/* [13.2] the Short Game's result says what decided it, the chateaux and Mt St Jean the French
 * hold, and the picture shows where the French stand before the end: two chateaux without Mt St
 * Jean do not win; with it they do */
static void test_wnlb_13_2_result_names_what_is_held(void **st) {
    (void)st;
    t_fx *f = t_new("short", 2, 132);
    f->s->vp_owner[s_vp_named(f, "hougoumont")] = WNLB_SIDE_FRENCH;
    f->s->vp_owner[s_vp_named(f, "la-haye-sainte")] = WNLB_SIDE_FRENCH;
    char *svg = s_svg(f, BRT_VIEW_PUBLIC);
    assert_non_null(strstr(svg, "[13.2] the French hold 2 chateaux: not enough to win"));
    free(svg);
    wnlb_state *w = wnlb_state_clone(f->s);
    w->vp_owner[s_vp_named(f, "mt-st-jean")] = WNLB_SIDE_FRENCH;
    wnlb_state *keep = f->s;
    f->s = w;
    svg = s_svg(f, BRT_VIEW_PUBLIC);
    f->s = keep;
    assert_non_null(strstr(svg, "[13.2] the French hold 2 chateaux and Mt St Jean: enough to win"));
    free(svg);
    wnlb_state_destroy(&w);
    f->s->turn = 4;
    wnlb_victory(f->s, &f->ev);
    brt_result res;
    f->rs->result(f->s, &res);
    assert_true(res.ended);
    assert_int_equal(res.winners, 2u);
    assert_string_equal(res.reason, "[13.2] the French hold 2 chateaux: the Allies win");
    t_free(f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wnlb_view_public_board_full),
        cmocka_unit_test(test_wnlb_view_vp_owner_follows_entry),
        cmocka_unit_test(test_wnlb_view_cdp_and_battle),
        cmocka_unit_test(test_wnlb_view_picture_markers),
        cmocka_unit_test(test_wnlb_9_6_picture_path_stops_at_window),
        cmocka_unit_test(test_wnlb_13_2_result_names_what_is_held),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
