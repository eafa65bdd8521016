// Writes the seed corpus of fuzz_frame (issue 10): frames of each message type and the bare
// payloads of a work item and a result, as the encoder makes them. Usage:
// make_frame_seeds DIR (regenerate after a change of the wire format).
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "rebirth/cluster/messages.h"

namespace rebirth::cluster {
namespace {

// A path move from square indices (a1 = 0).
PathMove path_move(int from, int to, std::uint8_t occurrence = 0) {
    PathMove m;
    m.move.from = Square(from);
    m.move.to = Square(to);
    m.occurrence = occurrence;
    return m;
}

void write(const std::filesystem::path& file, const std::string& bytes) {
    std::ofstream(file, std::ios::binary) << bytes;
}

}  // namespace
}  // namespace rebirth::cluster

int main(int argc, char** argv) {
    using namespace rebirth;
    using namespace rebirth::cluster;
    if (argc != 2) {
        std::fprintf(stderr, "usage: make_frame_seeds DIR\n");
        return 1;
    }
    const std::filesystem::path dir = argv[1];
    std::filesystem::create_directories(dir);

    WorkItem perft;
    perft.item_id = 7;
    perft.problem = 1;
    perft.file = "data/examples/circe_linss_mate2.inp";
    perft.file_hash = 0x1234;
    perft.path = {path_move(12, 28), path_move(52, 36, 1)};
    perft.depth = 3;
    perft.budget_seconds = 5;
    perft.threads = 2;
    WorkItem solve = perft;
    solve.kind = SearchKind::Solve;
    solve.path = {path_move(6, 21)};
    solve.max_seconds = 60;
    solve.twin = 1;
    solve.phase = 1;

    WorkItem proof = perft;
    proof.kind = SearchKind::ProofGame;
    proof.path = {path_move(6, 21), path_move(62, 45)};
    proof.depth = 0;
    proof.budget_seconds = 0;
    proof.max_seconds = 60;
    proof.twin = 1;
    proof.lengths = {4, 6};

    Result done;
    done.item_id = 7;
    done.nodes = 400;
    done.requests = 2;
    Result split = done;
    split.status = Result::Status::Split;
    split.done = {{{path_move(12, 28)}, 20}};
    split.pending = {{path_move(11, 27)}};
    const PlayLine line{0, 0, WHITE, {path_move(6, 21).move, path_move(57, 42).move}};
    split.fragments = {{{path_move(6, 21), path_move(57, 42)}, {{line}, {}}, 9, 0.5, false}};
    // A problem solved whole: its one twin's key as data; a cook-check item's claim result.
    Result solved = done;
    solved.status = Result::Status::Solved;
    TwinOutput twin;
    twin.trees = {PlayTree{0, 0, WHITE, PlayNode{PlayNode::Kind::Key, path_move(48, 51).move, {}}}};
    solved.outputs = {twin};
    solved.solve_status = "solved";
    solved.solutions = 1;
    Result claim = done;
    claim.status = Result::Status::Solved;
    claim.text = "{\"verdict\":\"sound\",\"found\":1}\n";
    claim.solve_status = "sound";
    claim.solutions = 1;
    Result fragment = done;
    fragment.status = Result::Status::Fragment;
    fragment.lines = {{}, {line, line}};
    PlayNode key{PlayNode::Kind::Key, path_move(12, 28).move, {}};
    key.then = PlayNode::Then::Threat;
    key.children = {PlayNode{PlayNode::Kind::Threat, path_move(3, 59).move, {}, true},
                    PlayNode{PlayNode::Kind::Defence,
                             path_move(57, 42).move,
                             {PlayNode{PlayNode::Kind::Attack, path_move(3, 39).move, {}, true}}}};
    Result tree_fragment = fragment;
    tree_fragment.lines.clear();
    tree_fragment.trees = {PlayTree{0, 0, WHITE, key}};
    Result retro_fragment = done;
    retro_fragment.status = Result::Status::Fragment;
    // A last-move sequence (Kd1xRe1, the rook reborn on h1) and a retractor's key with a
    // forward mate below a Black defence.
    UnMove uncapture;
    uncapture.move = path_move(3, 4).move;
    uncapture.uncaptured = ROOK;
    uncapture.unreborn = Square(7);
    retro_fragment.retro.sequences = {{uncapture, UnMove{path_move(52, 60).move}}};
    RetractorStep retractor_key;
    retractor_key.retraction = UnMove{path_move(12, 20).move};
    retractor_key.value = RetractorValue::Win;
    RetractorStep defence;
    defence.side = BLACK;
    defence.retraction = UnMove{path_move(59, 51).move};
    RetractorStep answer;
    answer.retraction = uncapture;
    answer.forward_moves = {path_move(3, 59).move};
    answer.value = RetractorValue::Win;
    defence.next = {answer};
    retractor_key.next = {defence};
    Result retractor_fragment = retro_fragment;
    retractor_fragment.retro = {};
    retractor_fragment.retro.key_choices = 1;
    retractor_fragment.retro.keys = {retractor_key};
    Result proof_result = done;
    proof_result.status = Result::Status::Proof;
    proof_result.proof_lines = {{{path_move(1, 18), path_move(57, 42)}}, {}};
    Result error = done;
    error.status = Result::Status::Error;
    error.error = "cannot read the file";

    write(dir / "ready.frame", encode_frame(MsgType::Ready, ""));
    write(dir / "stop.frame", encode_frame(MsgType::Stop, ""));
    write(dir / "work_perft.frame", encode_frame(MsgType::Work, serialize(perft)));
    write(dir / "work_solve.frame", encode_frame(MsgType::Work, serialize(solve)));
    write(dir / "result_split.frame", encode_frame(MsgType::Result, serialize(split)));
    write(dir / "result_solved.frame", encode_frame(MsgType::Result, serialize(solved)));
    write(dir / "result_claim.frame", encode_frame(MsgType::Result, serialize(claim)));
    write(dir / "result_fragment.frame", encode_frame(MsgType::Result, serialize(fragment)));
    write(dir / "result_fragment_tree.frame", encode_frame(MsgType::Result, serialize(tree_fragment)));
    write(dir / "result_fragment_retro.frame", encode_frame(MsgType::Result, serialize(retro_fragment)));
    write(dir / "result_fragment_retractor.frame", encode_frame(MsgType::Result, serialize(retractor_fragment)));
    write(dir / "result_error.frame", encode_frame(MsgType::Result, serialize(error)));
    write(dir / "work_proof.frame", encode_frame(MsgType::Work, serialize(proof)));
    write(dir / "result_proof.frame", encode_frame(MsgType::Result, serialize(proof_result)));
    write(dir / "work_perft.payload", serialize(perft));
    write(dir / "result_split.payload", serialize(split));
    return 0;
}
