/* install_consumer.c - an outside program built against an installed Berthier (pkg-config
 * berthier) by tests/e2e/test_install.sh: a bot's first steps with a view, without a daemon.
 * It packs an n20 View the way the daemon sends it in a StateView (the view bytes and their
 * view hash, docs/protocol.md), then unpacks the StateView, checks the hash with the client
 * library and decodes the View with the installed n20 protobuf-c header. It prints
 * "view turn=T phasing=P units=N hash=ok" and exits 0, or names what failed and exits 1. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <berthier/client.h>
#include <n20/v1/n20.pb-c.h>

int main(void) {
    N20__V1__UnitView unit = N20__V1__UNIT_VIEW__INIT;
    unit.id = "F-IG1";
    N20__V1__UnitView *units[1] = {&unit};
    N20__V1__View view = N20__V1__VIEW__INIT;
    view.turn = 7;
    view.phasing = "french";
    view.n_units = 1;
    view.units = units;
    size_t vlen = n20__v1__view__get_packed_size(&view);
    uint8_t *vbuf = malloc(vlen ? vlen : 1);
    if (!vbuf) return 1;
    n20__v1__view__pack(&view, vbuf);

    uint8_t hash[32];
    if (brt_view_hash("g-outside", 0, 42, vbuf, vlen, hash) != 0) {
        fprintf(stderr, "brt_view_hash failed\n");
        return 1;
    }
    Berthier__V1__StateView sv = BERTHIER__V1__STATE_VIEW__INIT;
    sv.seq = 42;
    sv.view.data = vbuf;
    sv.view.len = vlen;
    sv.view_hash.data = hash;
    sv.view_hash.len = sizeof hash;
    size_t slen = berthier__v1__state_view__get_packed_size(&sv);
    uint8_t *sbuf = malloc(slen);
    if (!sbuf) return 1;
    berthier__v1__state_view__pack(&sv, sbuf);

    /* what a bot does with a StateView it received */
    Berthier__V1__StateView *got = berthier__v1__state_view__unpack(NULL, slen, sbuf);
    if (!got) {
        fprintf(stderr, "StateView does not unpack\n");
        return 1;
    }
    if (brt_view_hash_check(got, "g-outside", 0) != 0) {
        fprintf(stderr, "the view hash does not check\n");
        return 1;
    }
    if (brt_view_hash_check(got, "g-other", 0) == 0) {
        fprintf(stderr, "the view hash checks for another game\n");
        return 1;
    }
    N20__V1__View *v = n20__v1__view__unpack(NULL, got->view.len, got->view.data);
    if (!v || v->n_units != 1 || strcmp(v->units[0]->id, "F-IG1") != 0) {
        fprintf(stderr, "the n20 View does not decode\n");
        return 1;
    }
    printf("view turn=%u phasing=%s units=%zu hash=ok code=%s\n", v->turn, v->phasing, v->n_units,
           brt_code_name(BERTHIER__V1__CODE__CODE_ILLEGAL));
    n20__v1__view__free_unpacked(v, NULL);
    berthier__v1__state_view__free_unpacked(got, NULL);
    free(sbuf);
    free(vbuf);
    return 0;
}
