/*
 * roll.c - who may see an n20 roll before the end of the game (LogDice.visible, core/vis.h).
 *
 * A roll is seen by the seats that may see the units it decides about: with fog-of-war [16.1]
 * a face-down enemy unit, and with sambre-crossing [17.1.1] a unit on the French player's secret
 * schedule, are hidden from a seat (n20_fog_hidden_from), and so is a roll made for them. That is
 * the rule n20_event follows for the event reporting the roll (a seat from which a named unit is
 * hidden gets a copy without its values), so a roll reaches exactly the seats that read its value
 * in the full event. A roll that names no unit (combat table rolled for revealed units, weather
 * [16.10.1], sudden death [4.0], the French Arrival Table [17.1.1], whose die and result the public
 * arrival-table event announces) is public. The Event deck shuffles [3.0] [5.0] [14.0] go through
 * brt_dice_shuffle: their rolls decide the hidden order of the Draw Pile and are seen by nobody
 * before the end.
 */
#include "n20.h"

uint32_t n20_roll_seats(const n20_state *s, const int *units, int nunits) {
    uint32_t seats = DICE_SEEN_BY_ALL;
    for (int seat = 0; seat < 2; seat++)
        for (int i = 0; i < nunits; i++)
            if (units[i] >= 0 && n20_fog_hidden_from(s, units[i], seat)) seats &= ~(1u << seat);
    return seats;
}

uint32_t n20_roll(const n20_state *s, brt_dice *dice, const int *units, int nunits, const char *purpose) {
    return brt_dice_roll_seen(dice, 6, n20_roll_seats(s, units, nunits), purpose);
}
