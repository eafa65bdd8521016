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
#include "rebirth/solve.h"

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

// A solve job of the two examples, writing under `dir`.
Job solve_job(const fs::path& dir) {
    Job job = parse_job(R"({"kind": "solve", "limits": {"threads": 1, "max_seconds": 60},
                            "problems": ["data/examples/*.inp"], "output_dir": "out"})",
                        "job.json", kSource);
    job.output_dir = (dir / "out").string();
    job.journal = (dir / "out" / "journal.jsonl").string();
    return job;
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
    EXPECT_EQ(shipped.problems.size(), 103u);
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

    Result r;
    r.item_id = 5;
    r.status = Result::Status::Solved;
    r.text = "a) header\n\n1.Qa1-h8 ! \n";
    r.solve_status = "solved";
    r.solutions = 1;
    r.nodes = 777;
    EXPECT_EQ(deserialize_result(decode_frame(encode_frame(MsgType::Result, serialize(r))).payload), r);
    r.solve_status.clear();
    EXPECT_THROW(deserialize_result(serialize(r)), ProtocolError);
    r.solve_status = "solved";
    r.status = Result::Status::Done;  // a text belongs to a solved result only
    EXPECT_THROW(deserialize_result(serialize(r)), ProtocolError);

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
    fragment.parts = {"text"};  // a solve item's fragment carries no text
    EXPECT_THROW(deserialize_result(serialize(fragment)), ProtocolError);
    fragment.parts.clear();
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

TEST(ClusterSolveWorker, TextIsTheCommandsOutput) {
    const std::string file = kSource + "/data/examples/circe_linss_mate2.inp";
    ProblemCache cache;
    WorkItem w;
    w.kind = SearchKind::Solve;
    w.file = file;
    w.file_hash = checksum(read_file_bytes(file));
    w.threads = 1;
    Result r = run_item(w, cache);
    ASSERT_EQ(r.status, Result::Status::Solved) << r.error;
    EXPECT_EQ(r.text, cli_solve_text(file, 0));
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
            EXPECT_TRUE(r.parts.empty());
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
        fs::path d = fresh_dir("data-" + what);
        Master m(solve_job(d), MasterOptions{});
        std::optional<WorkItem> item;
        while ((item = m.next_item()))
            if (item->problem == sample.first.problem && item->path == sample.first.path) break;
        ASSERT_TRUE(item) << what;
        Result r = sample.second;
        r.item_id = item->item_id;
        change(r);
        try {
            m.on_result(r);
            ADD_FAILURE() << what << " was accepted";
        } catch (const ProtocolError& e) {
            EXPECT_NE(std::string(e.what()).find("do not fit"), std::string::npos) << e.what();
        }
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
