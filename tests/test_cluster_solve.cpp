#include <gtest/gtest.h>

#include "cluster_test_util.h"
#include "test_util.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "rebirth/cluster/job.h"
#include "rebirth/cluster/journal.h"
#include "rebirth/cluster/master.h"
#include "rebirth/cluster/messages.h"
#include "rebirth/cluster/search.h"
#include "rebirth/error.h"
#include "rebirth/popeye_input.h"
#include "rebirth/popeye_output.h"
#include "rebirth/retro_problem.h"
#include "rebirth/rules.h"
#include "rebirth/solve.h"
#include "rebirth/unmove.h"

using namespace rebirth;
using namespace rebirth::cluster;
namespace fs = std::filesystem;

namespace {

const std::string kSource = REBIRTH_SOURCE_DIR;

// A new empty directory for one test.
fs::path fresh_dir(const std::string& name) { return rebirth::test::fresh_dir("cluster-solve-" + name); }

// The job error of `text`, paths taken from the source tree.
InputError job_error(const std::string& text) { return rebirth::cluster::test::job_error(text, kSource); }

using rebirth::test::read_text;

// What `rebirth solve --regression --quiet` prints for problem `index` (0-based) of `file`.
std::string cli_solve_text(const std::string& file, std::size_t index) {
    std::vector<Problem> problems = parse_popeye_file(file);
    SolveLimits limits;
    return format_header(problems.at(index)) + solve_problem_report(problems.at(index), 1, limits).text;
}

// The job of `text` (paths from the source tree), writing its outputs and journal under `dir`.
Job job_under(const std::string& text, const fs::path& dir) {
    Job job = parse_job(text, "job.json", kSource);
    job.output_dir = (dir / "out").string();
    job.journal = (dir / "out" / "journal.jsonl").string();
    return job;
}

// A solve job of the two examples, writing under `dir`.
Job solve_job(const fs::path& dir) {
    return job_under(R"({"kind": "solve", "limits": {"threads": 1, "max_seconds": 60},
                         "problems": ["data/examples/*.inp"], "output_dir": "out"})",
                     dir);
}

// Feeds a fresh master of `job` the result `sample` gave for its item, changed by `change`
// (the item is found again by its problem, twin, play, path and retro item number): the
// master must refuse it with a protocol error saying `why`.
template <class Change>
void expect_refused(const Job& job, const std::pair<WorkItem, Result>& sample, Change change, const std::string& what,
                    const std::string& why) {
    Master m(job, MasterOptions{});
    std::optional<WorkItem> item;
    const WorkItem& want = sample.first;
    while ((item = m.next_item()))
        if (item->problem == want.problem && item->path == want.path && item->twin == want.twin &&
            item->phase == want.phase && item->prefix == want.prefix)
            break;
    ASSERT_TRUE(item) << what;
    Result r = sample.second;
    r.item_id = item->item_id;
    change(r);
    try {
        m.on_result(r);
        ADD_FAILURE() << what << " was accepted";
    } catch (const ProtocolError& e) {
        EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
    }
}

}  // namespace

TEST(ClusterSolveJob, KindsAndLimitsPerEntry) {
    Job job = parse_job(R"({
      "kind": "solve", "depth": 3, "limits": {"max_seconds": 20},
      "problems": ["data/examples/*.inp",
                   {"files": "cluster/tests/data/kiwipete.inp", "kind": "perft", "limits": {"max_seconds": 0}},
                   {"files": "cluster/tests/data/initial_circe.inp", "kind": "noop", "items": 7}],
      "output_dir": "out"})",
                        "job.json", kSource);
    ASSERT_EQ(job.problems.size(), 4u);
    EXPECT_EQ(job.problems[0].kind, "solve");
    EXPECT_EQ(job.problems[0].depth, 0);
    EXPECT_DOUBLE_EQ(job.problems[0].limits.max_seconds, 20);
    EXPECT_EQ(job.problems[2].kind, "perft");
    EXPECT_EQ(job.problems[2].depth, 3);
    EXPECT_DOUBLE_EQ(job.problems[2].limits.max_seconds, 0);
    EXPECT_EQ(job.problems[3].kind, "noop");
    EXPECT_EQ(job.problems[3].items, 7);

    InputError e = job_error(R"({"kind": "solve", "output_dir": "o",
      "problems": [{"files": "cluster/tests/data/kiwipete.inp", "kind": "perft"}]})");
    EXPECT_NE(e.reason().find("no depth"), std::string::npos);
    e = job_error("{\"kind\": \"mate\"}");
    EXPECT_EQ(e.word(), "kind");
    EXPECT_NE(e.reason().find("implemented: perft, solve, proofgame, retro, cookcheck, noop"), std::string::npos);
    e = job_error("{\"kind\": \"solve\", \"output_dir\": \"o\",\n \"limits\": {\"max_seconds\": -1}}");
    EXPECT_EQ(e.line(), 2);
    EXPECT_EQ(e.word(), "limits.max_seconds");
    e = job_error(
        "{\"kind\": \"solve\", \"output_dir\": \"o\",\n \"problems\": [{\"files\": \"data/examples/*.inp\",\n "
        "\"kind\": \"prove\"}]}");
    EXPECT_EQ(e.line(), 3);
    EXPECT_EQ(e.word(), "problems[0].kind");
}

// Kind cookcheck: each claimed problem of a file is a problem of the job (one a YAML
// document, `STEM-K`); a document that cannot be read stays a problem (its verdict is
// bad-input), never an error of the job.
TEST(ClusterSolveJob, CookcheckProblemsAreClaims) {
    const Job job = parse_job(R"({"kind": "cookcheck", "output_dir": "o",
      "problems": ["cluster/tests/data/claims_quick.yaml", "data/collections/circe_problems.yaml"]})",
                              "job.json", kSource);
    ASSERT_EQ(job.problems.size(), 59u);
    EXPECT_EQ(job.problems[0].id, "claims_quick-1");
    EXPECT_EQ(job.problems[2].id, "claims_quick-3");
    EXPECT_EQ(job.problems[2].index, 3);
    EXPECT_EQ(job.problems[3].id, "circe_problems-1");
    for (const JobProblem& p : job.problems) {
        EXPECT_EQ(p.kind, "cookcheck");
        EXPECT_TRUE(p.error.empty()) << p.id << ": " << p.error;
    }
    const Job shipped = load_job(kSource + "/jobs/cookcheck-collections.json");
    EXPECT_EQ(shipped.problems.size(), 105u);
}

TEST(ClusterSolveJob, ShippedJobsParse) {
    Job cook = load_job(kSource + "/jobs/cookcheck-data.json");
    EXPECT_EQ(cook.kind, "solve");
    EXPECT_GE(cook.problems.size(), 50u);
    for (const JobProblem& p : cook.problems) {
        EXPECT_EQ(p.kind, "solve") << p.id;
        EXPECT_GT(p.limits.max_seconds, 0) << p.id;
        EXPECT_TRUE(p.error.empty()) << p.error;
    }
    Job heavy = load_job(kSource + "/jobs/heavy-batch.json");
    int perfts = 0, solves = 0;
    for (const JobProblem& p : heavy.problems) (p.kind == "perft" ? perfts : solves) += 1;
    EXPECT_GT(perfts, 0);
    EXPECT_GT(solves, 0);
    EXPECT_EQ(load_job(kSource + "/cluster/tests/data/cookcheck-quick.json").kind, "solve");
    EXPECT_EQ(load_job(kSource + "/cluster/tests/data/bench-batch.json").kind, "perft");
}

TEST(ClusterSolveMessages, RoundTripAndChecks) {
    WorkItem w;
    w.item_id = 3;
    w.kind = SearchKind::Solve;
    w.file = "x.inp";
    w.max_seconds = 60;
    EXPECT_EQ(deserialize_work_item(serialize(w)), w);
    Move m;
    m.from = SQ_E2;
    m.to = SQ_E4;
    w.path = {PathMove{m}};  // a root item of a split problem
    w.twin = 1;
    EXPECT_EQ(deserialize_work_item(serialize(w)), w);
    w.path.push_back(PathMove{m});  // a reply share of a root item
    EXPECT_EQ(deserialize_work_item(serialize(w)), w);
    w.path.push_back(PathMove{m});  // solve items are a whole problem, a root move or a reply
    EXPECT_THROW(deserialize_work_item(serialize(w)), ProtocolError);
    w.path.resize(1);
    // A cook-check item is one claimed problem: no path.
    WorkItem claim = w;
    claim.kind = SearchKind::Cookcheck;
    EXPECT_THROW(deserialize_work_item(serialize(claim)), ProtocolError);
    claim.path.clear();
    EXPECT_EQ(deserialize_work_item(serialize(claim)), claim);

    // A cook-check item's result is its claim's verdict as a JSON line.
    Result r;
    r.item_id = 5;
    r.status = Result::Status::Solved;
    r.text = "{\"verdict\":\"sound\"}\n";
    r.solve_status = "sound";
    r.solutions = 1;
    r.nodes = 777;
    EXPECT_EQ(deserialize_result(decode_frame(encode_frame(MsgType::Result, serialize(r))).payload), r);
    r.solve_status.clear();
    EXPECT_THROW(deserialize_result(serialize(r)), ProtocolError);
    r.solve_status = "sound";
    r.status = Result::Status::Done;  // a claim's result belongs to a solved result only
    EXPECT_THROW(deserialize_result(serialize(r)), ProtocolError);

    // A whole problem's twins travel as data (TwinOutput), a retro problem's as retro fragments.
    Result whole;
    whole.status = Result::Status::Solved;
    whole.solve_status = "partial";
    TwinOutput twin;
    twin.lines = {PlayLine{0, 1, BLACK, {m, m}}};
    PlayNode set_play{PlayNode::Kind::SetPlay, Move{}, {PlayNode{PlayNode::Kind::Defence, m, {}}}};
    twin.trees = {PlayTree{0, 0, WHITE, set_play}};
    twin.partial = twin.last_cut = true;
    TwinOutput stopped;
    stopped.timed_out = true;
    whole.outputs = {twin, stopped};
    EXPECT_EQ(deserialize_result(serialize(whole)), whole);
    Result retro = whole;
    retro.outputs.clear();
    RetroFragment answer;
    answer.sequences = {{UnMove{m}}};
    retro.retro_whole = {{{answer}}, {}};
    EXPECT_EQ(deserialize_result(serialize(retro)), retro);
    Result bad = whole;
    bad.text = r.text;  // one kind of answer only
    EXPECT_THROW(deserialize_result(serialize(bad)), ProtocolError);
    bad = whole;
    bad.retro_whole = retro.retro_whole;
    EXPECT_THROW(deserialize_result(serialize(bad)), ProtocolError);
    bad = whole;
    bad.error = "bad square";  // bad input has no solutions
    EXPECT_THROW(deserialize_result(serialize(bad)), ProtocolError);
    bad.outputs.clear();
    EXPECT_THROW(deserialize_result(serialize(bad)), ProtocolError);  // ... and says so
    bad.solve_status = "bad-input";
    EXPECT_EQ(deserialize_result(serialize(bad)), bad);
    bad = retro;
    bad.status = Result::Status::Fragment;
    bad.solve_status.clear();
    EXPECT_THROW(deserialize_result(serialize(bad)), ProtocolError);

    // A root item handed back: its replies (two-move paths), the searched ones with their lines.
    Result split;
    split.item_id = 6;
    split.status = Result::Status::Split;
    split.pending = {Path{PathMove{m}, PathMove{m}}};
    const PlayLine line{0, 0, WHITE, {m, Move{}, m}};
    split.fragments = {ChildFragment{Path{PathMove{m}, PathMove{m}}, {{line}, {}}, 12, 0.5, false}};
    EXPECT_EQ(deserialize_result(serialize(split)), split);
    split.fragments[0].path.pop_back();  // a reply fragment names root move and reply
    EXPECT_THROW(deserialize_result(serialize(split)), ProtocolError);
    split.fragments[0].path.push_back(PathMove{m});
    split.status = Result::Status::Fragment;  // reply fragments come with a split only
    EXPECT_THROW(deserialize_result(serialize(split)), ProtocolError);

    // A root item's solutions travel as data: lines per length, or a key's tree.
    Result fragment;
    fragment.item_id = 7;
    fragment.status = Result::Status::Fragment;
    fragment.lines = {{line}, {}, {line, line}};
    PlayNode defence{PlayNode::Kind::Defence, m, {PlayNode{PlayNode::Kind::Attack, m, {}, true}}};
    PlayNode key{PlayNode::Kind::Key, m, {PlayNode{PlayNode::Kind::Threat, m, {}, true}, defence, defence}};
    key.then = PlayNode::Then::Threat;
    fragment.trees = {PlayTree{1, 0, BLACK, key}};
    EXPECT_EQ(deserialize_result(serialize(fragment)), fragment);
    fragment.timed_out = true;  // a search cut by the time limit has found nothing to send
    EXPECT_THROW(deserialize_result(serialize(fragment)), ProtocolError);
    fragment.timed_out = false;
    fragment.retro.sequences = {{UnMove{m}}};  // a solve item's fragment carries no retro data
    EXPECT_THROW(deserialize_result(serialize(fragment)), ProtocolError);
    fragment.retro = {};
    fragment.status = Result::Status::Done;  // lines and trees belong to a fragment only
    EXPECT_THROW(deserialize_result(serialize(fragment)), ProtocolError);

    // A tree travels as its nodes in depth-first order; depths that do not nest are refused.
    std::vector<FlatNode> flat = flatten_tree(key);
    ASSERT_EQ(flat.size(), 6u);  // key, threat, two defences each with its continuation
    EXPECT_EQ(flat[1].kind, PlayNode::Kind::Threat);
    EXPECT_EQ(flat[2].kind, PlayNode::Kind::Defence);
    EXPECT_EQ(flat[5].depth, 2);
    EXPECT_EQ(unflatten_tree(flat), key);
    flat[5].depth = 3;  // two levels below the node before it
    EXPECT_THROW(unflatten_tree(flat), ProtocolError);
    flat[5].depth = 0;  // a second root
    EXPECT_THROW(unflatten_tree(flat), ProtocolError);
    flat[5].depth = 2;
    flat[5].kind = PlayNode::Kind(99);
    EXPECT_THROW(unflatten_tree(flat), ProtocolError);

    std::string frame = encode_frame(MsgType::Work, serialize(w));
    frame[4] = 1;  // the perft-only wire format of the first increment
    EXPECT_THROW(decode_frame(frame), ProtocolError);
}

// A worker answers a problem given whole with its solutions as data (never text), from which
// the master renders what the command prints.
TEST(ClusterSolveWorker, WholeProblemIsDataTheMasterRenders) {
    const std::string file = kSource + "/data/examples/circe_linss_mate2.inp";
    ProblemCache cache;
    WorkItem w;
    w.kind = SearchKind::Solve;
    w.file = file;
    w.file_hash = checksum(read_file_bytes(file));
    w.threads = 1;
    Result r = run_item(w, cache);
    ASSERT_EQ(r.status, Result::Status::Solved) << r.error;
    EXPECT_TRUE(r.text.empty());
    ASSERT_EQ(r.outputs.size(), 1u);
    EXPECT_FALSE(r.outputs[0].trees.empty());
    std::string status;
    int solutions = -1;
    EXPECT_EQ(whole_problem_text(parse_popeye_file(file).at(0), r, 0, &status, &solutions), cli_solve_text(file, 0));
    EXPECT_EQ(status, r.solve_status);
    EXPECT_EQ(solutions, r.solutions);
    EXPECT_FALSE(r.solve_status.empty());
    EXPECT_GT(r.nodes, 0u);
    EXPECT_EQ(r.threads, 1);
    w.file_hash ^= 1;
    EXPECT_EQ(run_item(w, cache).status, Result::Status::Error);
    w.file_hash ^= 1;
    w.problem_index = 2;
    EXPECT_EQ(run_item(w, cache).status, Result::Status::Error);
}

TEST(ClusterSolveJournal, KeepsTextsByteForByte) {
    fs::path dir = fresh_dir("journal");
    SolveRecord utf8{"Caf\xc3\xa9\n", "solved", 1, 10, 0.5, 2};
    SolveRecord latin1{"Caf\xe9\n\x01", "cooked", 2, 11, 0.25, 1};
    std::string text = journal_start("fp", 1, "h", 1) + "\n" + journal_plan("a", {kSolveItem}) + "\n" +
                       journal_plan("b", {kSolveItem}) + "\n" + journal_solved("a", kSolveItem, utf8) + "\n" +
                       journal_solved("b", kSolveItem, latin1) + "\n";
    EXPECT_NE(text.find("text_hex"), std::string::npos);
    std::ofstream(dir / "j.jsonl", std::ios::binary) << text;
    JournalState s = read_journal((dir / "j.jsonl").string());
    EXPECT_EQ(s.solved.at("a"), utf8);
    EXPECT_EQ(s.solved.at("b"), latin1);
    EXPECT_TRUE(s.problems.at("b").finished());

    std::ofstream(dir / "twice.jsonl", std::ios::binary) << text << journal_solved("a", kSolveItem, utf8) << "\n";
    EXPECT_THROW(read_journal((dir / "twice.jsonl").string()), InputError);
}

// The journal keeps lines and trees as keys that give them back exactly.
TEST(ClusterSolveJournal, PlayKeysRoundTrip) {
    Move e4{SQ_E2, SQ_E4};
    Move promo{SQ_D7, SQ_D8, MoveKind::Promotion, QUEEN, SQ_A8, ROOK, SQ_H1, 0};
    const PlayLine line{2, 1, BLACK, {e4, Move{}, promo}};
    EXPECT_EQ(play_line_key(line),
              "2/1/b e2e4 pass d7d8:k1:p" + std::to_string(int(QUEEN)) + ":ra8:w" + std::to_string(int(ROOK)) + ":xh1");
    EXPECT_EQ(parse_play_line_key(play_line_key(line)), line);
    PlayLine set = line;
    set.set_play = true;
    EXPECT_EQ(play_line_key(set).substr(0, 7), "2/1/bs ");
    EXPECT_EQ(parse_play_line_key(play_line_key(set)), set);
    PlayLine intro = line;
    intro.restart = 2;  // introductory moves before the main play's first move, moves[2]
    EXPECT_EQ(play_line_key(intro).substr(0, 8), "2/1/b@2 ");
    EXPECT_EQ(parse_play_line_key(play_line_key(intro)), intro);

    PlayNode key{PlayNode::Kind::Try, e4, {PlayNode{PlayNode::Kind::Refutation, promo, {}, true}}};
    key.then = PlayNode::Then::Zugzwang;
    const PlayTree tree{0, 0, WHITE, key};
    EXPECT_EQ(play_tree_key(tree).substr(0, 18), "0/0/w 0.T.0.Z/e2e4");
    EXPECT_EQ(parse_play_tree_key(play_tree_key(tree)), tree);

    for (const char* bad :
         {"", "0/0", "0/0/x e2e4", "0/0/w e2", "a/0/w e2e4", "0/0/w e2e4:o1", "0/0/w@ e2e4", "0/0/w@x e2e4"})
        EXPECT_THROW(parse_play_line_key(bad), std::invalid_argument) << bad;
    for (const char* bad : {"0/0/w", "0/0/ws 0.K.0.N/e2e4", "0/0/w 1.K.0.N/e2e4", "0/0/w 0.K.0.N/e2e4 2.D.0.N/e2e4",
                            "0/0/w 0.Q.0.N/e2e4", "0/0/w 0.K.2.N/e2e4", "0/0/w 0.K.0.N e2e4"})
        EXPECT_THROW(parse_play_tree_key(bad), std::invalid_argument) << bad;
}

// Workers answer a root item with its solutions as data (never text), which the master checks
// against the item before it keeps them: a move that is not legal there is a protocol error.
TEST(ClusterSolveMaster, FragmentsAreDataCheckedAgainstTheirItems) {
    fs::path dir = fresh_dir("data");
    ProblemCache cache;
    int with_lines = 0, with_trees = 0;
    std::optional<std::pair<WorkItem, Result>> line_sample, tree_sample;
    {
        Master m(solve_job(dir), MasterOptions{});
        while (auto item = m.next_item()) {
            const Result r = run_item(*item, cache);
            ASSERT_EQ(r.status, Result::Status::Fragment) << r.error;
            EXPECT_EQ(r.retro, RetroFragment{});
            for (const auto& part : r.lines) with_lines += !part.empty();
            with_trees += !r.trees.empty();
            if (!line_sample && std::any_of(r.lines.begin(), r.lines.end(), [](const auto& l) { return !l.empty(); }))
                line_sample = {*item, r};
            if (!tree_sample && !r.trees.empty()) tree_sample = {*item, r};
            m.on_result(r);
        }
        EXPECT_TRUE(m.finished());
        EXPECT_EQ(m.exit_code(), 0);
    }
    for (const JobProblem& p : solve_job(dir).problems)
        EXPECT_EQ(read_text(dir / "out" / (p.id + ".out")), cli_solve_text(p.file, 0)) << p.id;
    // A journal whose fragment holds a move that is not legal there is refused on --resume.
    {
        std::istringstream journal(read_text(dir / "out" / "journal.jsonl"));
        std::string changed, line;
        bool done = false;
        while (std::getline(journal, line)) {
            nlohmann::json j = nlohmann::json::parse(line);
            if (!done && j["t"] == "fragment" && j.contains("lines"))
                for (auto& part : j["lines"])
                    if (!part.empty() && !done) {
                        std::string key = part[0];
                        key.replace(key.rfind(' ') + 1, std::string::npos, "a1a2");  // the last move
                        part[0] = key;
                        line = j.dump();
                        done = true;
                    }
            changed += line + "\n";
        }
        ASSERT_TRUE(done);
        std::ofstream(dir / "out" / "journal.jsonl", std::ios::binary) << changed;
        MasterOptions resume;
        resume.resume = true;
        try {
            Master m(solve_job(dir), resume);
            ADD_FAILURE() << "a changed journal was accepted";
        } catch (const InputError& e) {
            EXPECT_NE(std::string(e.what()).find("do not fit"), std::string::npos) << e.what();
        }
    }
    ASSERT_TRUE(line_sample);  // Lindenthal's h#2: help play's lines
    ASSERT_TRUE(tree_sample);  // Linß's #2: the key with its threat and variations
    EXPECT_GT(with_lines, 0);
    EXPECT_GT(with_trees, 0);

    // The same answers with one move changed, each to a fresh master at the same item.
    auto refused = [&](const std::pair<WorkItem, Result>& sample, auto change, const std::string& what) {
        expect_refused(solve_job(fresh_dir("data-" + what)), sample, change, what, "do not fit");
    };
    refused(
        *line_sample,
        [](Result& r) {
            for (auto& part : r.lines)
                if (!part.empty()) {
                    part[0].moves.back().to = part[0].moves.back().from;  // a move to its own square
                    return;
                }
        },
        "line");
    refused(
        *tree_sample,
        [](Result& r) { r.trees[0].root.children.back().move.to = r.trees[0].root.children.back().move.from; }, "tree");
    refused(
        *tree_sample, [](Result& r) { r.trees[0].play = 1; }, "play");
}

TEST(ClusterSolveMaster, StoppedRunResumesToTheSameOutputs) {
    fs::path dir = fresh_dir("master");
    Job job = solve_job(dir);
    ASSERT_EQ(job.problems.size(), 2u);
    MasterOptions options;
    options.stop_after_results = 1;
    ProblemCache cache;
    std::optional<WorkItem> first;
    {
        Master m(job, options);
        while (auto item = m.next_item()) {
            if (!first) first = item;
            m.on_result(run_item(*item, cache));
        }
        EXPECT_TRUE(m.stopped());
    }
    ASSERT_TRUE(first);
    MasterOptions resume;
    resume.resume = true;
    std::ostringstream summary;
    resume.summary = &summary;
    int searched = 0;
    {
        Master m(job, resume);
        while (auto item = m.next_item()) {
            ++searched;
            EXPECT_FALSE(item->problem == first->problem && item->twin == first->twin && item->phase == first->phase &&
                         item->path == first->path);
            EXPECT_EQ(item->kind, SearchKind::Solve);
            EXPECT_DOUBLE_EQ(item->max_seconds, 60);
            m.on_result(run_item(*item, cache));
        }
        EXPECT_TRUE(m.finished());
        EXPECT_EQ(m.exit_code(), 0);
    }
    EXPECT_GE(searched, 1);  // the item searched before the stop is not searched again
    for (const JobProblem& p : job.problems)
        EXPECT_EQ(read_text(dir / "out" / (p.id + ".out")), cli_solve_text(p.file, 0)) << p.id;
    std::istringstream lines(summary.str());
    std::string line;
    std::vector<nlohmann::json> rows;
    while (std::getline(lines, line)) rows.push_back(nlohmann::json::parse(line));
    ASSERT_EQ(rows.size(), 2u);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        EXPECT_EQ(rows[i]["id"], job.problems[i].id);
        for (const char* key : {"status", "solutions", "nodes", "seconds", "ranks", "threads"})
            EXPECT_TRUE(rows[i].contains(key)) << key;
    }

    job.problems[0].limits.max_seconds = 30;  // another job: the journal does not fit
    EXPECT_THROW(Master(job, resume), InputError);
}

TEST(ClusterSolveMaster, ResultOfTheWrongKindIsAProtocolError) {
    fs::path dir = fresh_dir("wrong");
    Master m(solve_job(dir), MasterOptions{});
    auto item = m.next_item();
    ASSERT_TRUE(item);
    Result wrong;
    wrong.item_id = item->item_id;
    wrong.problem = item->problem;
    wrong.status = Result::Status::Done;
    EXPECT_THROW(m.on_result(wrong), ProtocolError);
}

TEST(ClusterSolveMaster, NoopItemsAreCounted) {
    fs::path dir = fresh_dir("noop");
    Job job = parse_job(R"({"kind": "noop", "items": 50, "problems": ["data/examples/*.inp"], "output_dir": "out"})",
                        "job.json", kSource);
    job.output_dir = (dir / "out").string();
    job.journal = (dir / "out" / "journal.jsonl").string();
    ProblemCache cache;
    Master m(job, MasterOptions{});
    int handed = 0;
    while (auto item = m.next_item()) {
        ++handed;
        EXPECT_EQ(item->kind, SearchKind::Noop);
        m.on_result(run_item(*item, cache));
    }
    EXPECT_EQ(handed, 100);
    EXPECT_EQ(m.items_handed_out(), 100u);
    EXPECT_TRUE(m.finished());
    EXPECT_EQ(read_text(dir / "out" / (job.problems[0].id + ".noop")), "50 items\n");
}

namespace {

// A retro job of the cluster tests' retro problems (last moves under several conditions, two
// defensive retractors), writing under `dir`, about 8 items a problem.
Job retro_job(const fs::path& dir) {
    return job_under(R"({"kind": "retro", "limits": {"threads": 1, "items_per_rank": 8},
                         "problems": ["cluster/tests/data/retro_quick.inp"], "output_dir": "out"})",
                     dir);
}

// What `rebirth solve --regression --quiet` prints for retro problem `index` (1-based) of `file`.
std::string cli_retro_text(const std::string& file, int index) {
    const std::vector<Problem> problems = parse_popeye_file(file);
    const Problem& p = problems.at(std::size_t(index - 1));
    return format_header(p) + solve_retro_problem(p, 1).text;
}

}  // namespace

// A retro item's answer travels as data: sequences of un-moves, a retractor's counts and its
// trees of steps (depth-first, without texts). Retro data on a result of another status or
// beside lines of play, a timed-out fragment with retro data, negative counts and trees whose
// depths do not nest or whose sides are out of range are refused.
TEST(ClusterRetroMessages, RoundTripAndChecks) {
    Result r;
    r.item_id = 9;
    r.status = Result::Status::Fragment;
    UnMove u;
    u.move = Move{SQ_E2, SQ_E4};
    UnMove x;
    x.move = Move{SQ_D1, SQ_E1};
    x.uncaptured = ROOK;
    x.unreborn = SQ_H1;
    x.resurrected = make_piece(BLACK, ROOK);
    r.retro.sequences = {{u, x}, {x}};
    EXPECT_EQ(deserialize_result(serialize(r)), r);

    RetractorStep key;
    key.retraction = u;
    key.value = RetractorValue::Win;
    RetractorStep defence;
    defence.side = BLACK;
    defence.retraction = x;
    RetractorStep mate = key;
    mate.forward_moves = {Move{SQ_D1, SQ_D8}};
    defence.next = {mate, mate};
    key.next = {defence, defence};
    Result t;
    t.status = Result::Status::Fragment;
    t.retro.key_choices = 1;
    t.retro.unresolved_choices = 1;
    t.retro.keys = {key};
    RetractorStep open = key;
    open.next.clear();
    open.timed_out = true;
    open.value = RetractorValue::Unknown;
    t.retro.unresolved = {open};
    EXPECT_EQ(deserialize_result(serialize(t)), t);
    const std::vector<FlatStep> flat = flatten_steps(key);
    ASSERT_EQ(flat.size(), 7u);  // key, two defences each with two answers
    EXPECT_EQ(flat[1].side, BLACK);
    EXPECT_EQ(flat[2].forward, mate.forward_moves);
    EXPECT_EQ(unflatten_steps(flat), [&] {
        RetractorStep k = key;  // the texts do not travel
        return k;
    }());
    std::vector<FlatStep> bad = flat;
    bad[2].depth = 3;
    EXPECT_THROW(unflatten_steps(bad), ProtocolError);
    bad = flat;
    bad[0].depth = 1;
    EXPECT_THROW(unflatten_steps(bad), ProtocolError);
    bad = flat;
    bad[1].side = Color(2);
    EXPECT_THROW(unflatten_steps(bad), ProtocolError);
    Result wrong = t;
    wrong.retro.keys[0].next[0].side = Color(3);
    EXPECT_THROW(deserialize_result(serialize(wrong)), ProtocolError);
    wrong = t;
    wrong.retro.key_choices = -1;
    EXPECT_THROW(deserialize_result(serialize(wrong)), ProtocolError);
    wrong = t;
    wrong.timed_out = true;
    EXPECT_THROW(deserialize_result(serialize(wrong)), ProtocolError);
    wrong = t;
    wrong.status = Result::Status::Done;
    EXPECT_THROW(deserialize_result(serialize(wrong)), ProtocolError);
    wrong = r;
    wrong.lines = {{PlayLine{0, 0, WHITE, {u.move}}}};
    EXPECT_THROW(deserialize_result(serialize(wrong)), ProtocolError);
}

// The journal keeps un-moves, sequences and retractor trees as canonical keys: every un-move
// of Circe, Anti-Circe and Circe Assassin positions (uncaptures, rebirths, resurrections)
// survives its token, and malformed or non-canonical keys are refused.
TEST(ClusterRetroJournal, KeysRoundTrip) {
    int tokens = 0;
    for (const char* condition : {"", "Circe", "AntiCirce", "Circe Assassin"}) {
        const std::string text = std::string("BeginProblem ") +
                                 (*condition ? std::string("Condition ") + condition + " " : std::string()) +
                                 "Pieces White Ke1 Qd1 Rh1 Pa2 Pc4 Black Ke8 Sb8 Rh8 Pd5 Pf3 "
                                 "Stipulation lastmove EndProblem";
        const std::vector<Problem> problems = parse_popeye(text, "keys");
        ASSERT_EQ(problems.size(), 1u) << condition;
        const RuleSet rules = resolve_rules(problems[0].conditions, "keys", 1);
        for (Color moved : {WHITE, BLACK}) {
            rebirth::Setup s = problems[0].setup;
            s.side_to_move = ~moved;
            std::vector<UnMove> un;
            generate_unmoves(s, un, rules.orthodox() ? nullptr : &rules);
            for (const UnMove& m : un) {
                EXPECT_EQ(parse_unmove_token(unmove_token(m)), m) << unmove_token(m);
                ++tokens;
            }
            if (un.size() >= 2) {
                const std::vector<UnMove> seq{un[0], un[1]};
                EXPECT_EQ(parse_retro_sequence_key(retro_sequence_key(seq)), seq);
                RetractorStep step;
                step.retraction = un[0];
                step.value = RetractorValue::Win;
                RetractorStep below;
                below.side = BLACK;
                below.retraction = un[1];
                below.forward_moves = {un[1].move, un[0].move};
                below.timed_out = true;
                step.next = {below};
                EXPECT_EQ(parse_retractor_step_key(retractor_step_key(step)), step) << retractor_step_key(step);
            }
        }
    }
    EXPECT_GT(tokens, 40);
    UnMove plain;
    plain.move = Move{SQ_E2, SQ_E4};
    const std::string token = unmove_token(plain);
    EXPECT_EQ(token, "e2e4");  // fields at their defaults are left out
    UnMove rook;
    rook.move = Move{SQ_D2, SQ_E1};
    rook.uncaptured = ROOK;
    rook.unreborn = SQ_H1;
    EXPECT_EQ(unmove_token(rook), "d2e1/a3.b7");
    EXPECT_EQ(parse_unmove_token("d2e1/a3.b7"), rook);
    for (const std::string& bad :
         {std::string(""), std::string("e2e4/"), std::string("e2e4/a0"), std::string("d2e1/b7.a3"),
          std::string("d2e1/a3.a3"), std::string("d2e1/a3.b07"), std::string("e2e4/e2"), std::string("e2e4/z1"),
          std::string("e2e4/a"), std::string("e2e4/a3/b7"), std::string("e2e4:o1")})
        EXPECT_THROW(parse_unmove_token(bad), std::invalid_argument) << bad;
    EXPECT_THROW(parse_retro_sequence_key(""), std::invalid_argument);
    for (const std::string& bad :
         {std::string(), "0.w.W.0~" + token, "0.w.W.0~" + token + "~e2", "1.w.W.0~" + token + "~",
          "0.x.W.0~" + token + "~", "0.w.Q.0~" + token + "~", "0.w.W.2~" + token + "~",
          "0.w.W.0~" + token + "~ 2.b.F.0~" + token + "~", "0.w.W.0~" + token + "~~"})
        EXPECT_THROW(parse_retractor_step_key(bad), std::invalid_argument) << bad;
    EXPECT_NO_THROW(parse_retractor_step_key("0.w.W.0~" + token + "~e7e8 1.b.F.0~d2e1/a3.b7~"));
}

// Workers answer retro items with their answers as data (never text), which the master checks
// against the item's problem before it keeps them, and renders: the outputs are those of one
// process. A retraction the position does not have, in a result or in the journal on
// --resume, is refused.
TEST(ClusterRetroMaster, AnswersAreDataCheckedAgainstTheirItems) {
    fs::path dir = fresh_dir("retro");
    ProblemCache cache;
    std::optional<std::pair<WorkItem, Result>> sequence_sample, tree_sample;
    int items = 0;
    {
        Master m(retro_job(dir), MasterOptions{});
        while (auto item = m.next_item()) {
            const Result r = run_item(*item, cache);
            ASSERT_EQ(r.status, Result::Status::Fragment) << r.error;
            EXPECT_TRUE(r.lines.empty() && r.trees.empty());
            if (!sequence_sample && !r.retro.sequences.empty()) sequence_sample = {*item, r};
            if (!tree_sample && !r.retro.keys.empty() && !r.retro.keys[0].next.empty()) tree_sample = {*item, r};
            m.on_result(r);
            ++items;
        }
        EXPECT_TRUE(m.finished());
        EXPECT_EQ(m.exit_code(), 0);
    }
    EXPECT_GT(items, 20);
    for (const JobProblem& p : retro_job(dir).problems)
        EXPECT_EQ(read_text(dir / "out" / (p.id + ".out")), cli_retro_text(p.file, p.index)) << p.id;
    ASSERT_TRUE(sequence_sample);
    ASSERT_TRUE(tree_sample);

    // A journal whose item holds a retraction changed into another is refused on --resume.
    for (const char* field : {"sequences", "keys"}) {
        std::istringstream journal(read_text(dir / "out" / "journal.jsonl"));
        std::string changed, line;
        bool done = false;
        while (std::getline(journal, line)) {
            nlohmann::json j = nlohmann::json::parse(line);
            if (!done && j["t"] == "fragment" && j.contains(field)) {
                std::string key = j[field][0];
                // The first un-move's squares: a sequence's first token, a tree's after its head.
                const std::size_t at = std::string(field) == "keys" ? key.find('~') + 1 : 0;
                key.replace(at, 4, key.substr(at + 2, 2) + key.substr(at, 2));
                j[field][0] = key;
                line = j.dump();
                done = true;
            }
            changed += line + "\n";
        }
        ASSERT_TRUE(done) << field;
        fs::path d = fresh_dir(std::string("retro-journal-") + field);
        fs::create_directories(d / "out");
        std::ofstream(d / "out" / "journal.jsonl", std::ios::binary) << changed;
        MasterOptions resume;
        resume.resume = true;
        try {
            Master m(retro_job(d), resume);
            ADD_FAILURE() << "a changed journal was accepted (" << field << ")";
        } catch (const InputError& e) {
            EXPECT_NE(std::string(e.what()).find("do not fit"), std::string::npos) << e.what();
        }
    }

    // The same answers with one retraction or forward move changed, each to a fresh master at
    // the same item.
    auto refused = [&](const std::pair<WorkItem, Result>& sample, auto change, const std::string& what) {
        expect_refused(retro_job(fresh_dir("retro-" + what)), sample, change, what, "does not fit");
    };
    refused(
        *sequence_sample,
        [](Result& r) { r.retro.sequences[0].back().move.from = r.retro.sequences[0].back().move.to; }, "sequence");
    refused(
        *tree_sample,
        [](Result& r) {
            UnMove& u = r.retro.keys[0].next[0].retraction;
            u.move.from = u.move.to;
        },
        "tree");
    refused(
        *tree_sample, [](Result& r) { r.retro.keys[0].next[0].side = WHITE; }, "side");
}

// Problems a worker answers whole (set play, MaxSolutions, bad input) come back as data: the
// master renders what `rebirth solve` prints, and refuses a changed move, a changed summary
// or a twin left out.
TEST(ClusterSolveMaster, WholeProblemsAreDataCheckedAndRendered) {
    const std::string job_text = R"({"kind": "solve", "limits": {"threads": 1},
                                     "problems": ["cluster/tests/data/whole_quick.inp"], "output_dir": "out"})";
    const std::string file = kSource + "/cluster/tests/data/whole_quick.inp";
    fs::path dir = fresh_dir("whole");
    ProblemCache cache;
    std::vector<std::pair<WorkItem, Result>> samples;
    {
        Master m(job_under(job_text, dir), MasterOptions{});
        while (auto item = m.next_item()) {
            EXPECT_TRUE(item->path.empty());  // none of them splits
            const Result r = run_item(*item, cache);
            ASSERT_EQ(r.status, Result::Status::Solved) << r.error;
            EXPECT_TRUE(r.text.empty());
            samples.push_back({*item, r});
            m.on_result(r);
        }
        EXPECT_TRUE(m.finished());
    }
    ASSERT_EQ(samples.size(), 3u);
    const Job job = job_under(job_text, dir);
    for (int i = 0; i < 2; ++i)
        EXPECT_EQ(read_text(dir / "out" / (job.problems[size_t(i)].id + ".out")), cli_solve_text(file, size_t(i)));
    EXPECT_NE(read_text(dir / "out" / (job.problems[2].id + ".out")).find("missing black king"), std::string::npos);
    EXPECT_EQ(samples[2].second.solve_status, "bad-input");
    // The set play and a key with its variations; the lines of a play cut by MaxSolutions.
    const TwinOutput& battle = samples[0].second.outputs.at(0);
    ASSERT_GE(battle.trees.size(), 2u);
    EXPECT_EQ(battle.trees[0].root.kind, PlayNode::Kind::SetPlay);
    const TwinOutput& help = samples[1].second.outputs.at(0);
    EXPECT_EQ(help.lines.size(), 3u);
    EXPECT_TRUE(help.last_cut);

    auto refused = [&](const std::pair<WorkItem, Result>& sample, auto change, const std::string& what) {
        expect_refused(job_under(job_text, fresh_dir("whole-" + what)), sample, change, what, "does not fit");
    };
    refused(
        samples[0], [](Result& r) { r.outputs[0].trees[0].root.children[0].move.to = SQ_H1; }, "set-play");
    refused(
        samples[0], [](Result& r) { r.outputs[0].trees[1].root.move.to = SQ_A1; }, "key");
    refused(
        samples[1], [](Result& r) { r.outputs[0].lines[1].moves[0].from = SQ_A8; }, "line");
    refused(
        samples[1], [](Result& r) { r.outputs.clear(); }, "twins");
    refused(
        samples[0], [](Result& r) { r.solutions = 2; }, "summary");
    refused(
        samples[2], [](Result& r) { r.solve_status = "solved"; }, "status");
}

// A retro job's time limit bounds each retractor item: first choices it leaves unsettled come
// back as such (listed "not settled: time limit"), never as refuted, and the problem's verdict
// is unresolved.
TEST(ClusterRetroMaster, TimeLimitLeavesRetractorChoicesUnsettled) {
    fs::path dir = fresh_dir("retro-limit");
    const std::string job_text = R"({"kind": "retro", "limits": {"threads": 1, "items_per_rank": 4,
                                     "max_seconds": 0.000001},
                                     "problems": ["cluster/tests/data/retro_quick.inp"], "output_dir": "out"})";
    ProblemCache cache;
    int unsettled = 0;
    {
        Master m(job_under(job_text, dir), MasterOptions{});
        while (auto item = m.next_item()) {
            const Result r = run_item(*item, cache);
            ASSERT_TRUE(r.status == Result::Status::Fragment || r.status == Result::Status::Solved) << r.error;
            for (const RetractorStep& u : r.retro.unresolved) unsettled += u.timed_out;
            for (const auto& twin : r.retro_whole)
                for (const auto& side : twin)
                    for (const RetroFragment& f : side)
                        for (const RetractorStep& u : f.unresolved) unsettled += u.timed_out;
            m.on_result(r);
        }
        EXPECT_TRUE(m.finished());
        EXPECT_EQ(m.exit_code(), 0);
    }
    EXPECT_GT(unsettled, 0);
    const Job job = job_under(job_text, dir);
    const std::string out = read_text(dir / "out" / (job.problems.back().id + ".out"));  // Kg6 Rb1 / Kh8, -2 & #1
    EXPECT_NE(out.find("?  (not settled: time limit)"), std::string::npos) << out;
    EXPECT_NE(out.find("verdict: unresolved"), std::string::npos) << out;
}
