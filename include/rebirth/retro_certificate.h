#pragma once

#include <optional>
#include <string>
#include <vector>

#include "rebirth/move.h"
#include "rebirth/problem.h"
#include "rebirth/setup.h"
#include "rebirth/unmove.h"

// Certificates of retro answers: a sequence of retractions is proved possible by a game from
// the game array (White to move) that reaches the position the retractions lead back to and
// then plays the retracted moves forward to the diagram. The game comes from the proof-game
// search (solve.h); a certificate is checked by replaying it, independently of the search.

namespace rebirth {

struct RetroCertificate {
    std::vector<Move> game;      // from the game array to the earliest position of the sequence
    std::vector<Move> sequence;  // then the sequence's moves, in the order they were played
};

// Looks for a certificate of `seq` (retractions of `position`, the last move first) under
// `conditions` (empty: orthodox chess): a proof game of at most max_plies half-moves to the
// position seq leads back to, found within `seconds` (0: no limit) on `threads`, whose
// replay with the sequence reaches `position` (verify_certificate); among the first
// `max_games` games the search gives, the first that replays. With `any_length`, in orthodox
// chess, when none does: a game of any length as `rebirth legal` finds it (judge_legality in
// legality_proof.h: the constructive search to that position, or to the one its few last moves
// or a promotion taken back lead to; on `threads`, within `seconds` again, or 10 s). Nothing when none is found: that
// proves nothing (no game may exist within the limits, or the search stopped).
std::optional<RetroCertificate> find_certificate(const Setup& position, const std::vector<UnMove>& seq,
                                                 const std::vector<Condition>& conditions, int max_plies,
                                                 double seconds, int threads = 1, int max_games = 20,
                                                 bool any_length = false);

// The position after `moves` played from the game array (White to move) under `conditions`,
// each among generate_legal's moves where it is played (rule choices included); nothing when
// one is not.
std::optional<Setup> replay_game(const std::vector<Move>& moves, const std::vector<Condition>& conditions);

// Whether `cert` replays under `conditions`: every move of its game and then of its sequence
// is legal where it is played (among generate_legal's moves, rule choices included), starting
// from the game array with White to move, and the last position has `position`'s units,
// side to move and (Circe Parrain) waiting unit: the position's own, else the conditions'
// LastCapture. The game array has none waiting (a LastCapture is the diagram's).
bool verify_certificate(const Setup& position, const RetroCertificate& cert, const std::vector<Condition>& conditions);

// The certificate in Popeye's notation, one line: the game's moves numbered from 1, then
// " | " and the sequence's moves ("1.e2-e4 e7-e5 2.Sg1-f3 | Sb8-c6 3.Sf3*e5").
std::string certificate_text(const RetroCertificate& cert, const std::vector<Condition>& conditions);

// Replays a certificate written as certificate_text writes it (move numbers optional, one
// "|" between the game and the sequence), each move matched by its text against the legal
// moves where it is played, from the game array with White to move: "" when every move is
// legal, the sequence has `sequence_length` moves and the last position is `position` as
// verify_certificate compares them; else why not, naming the first move that fails. `played`
// (when given) gets the moves replayed.
std::string check_certificate_text(const Setup& position, const std::string& text,
                                   const std::vector<Condition>& conditions, int sequence_length,
                                   std::vector<Move>* played = nullptr);

}  // namespace rebirth
