#!/usr/bin/env python3
"""Host tests of the method checks' reading of machine code, without the
disassemblers: nvdisasm listings saved from the workbook's modules
(tests/checks/data/sass/) parsed into kernels, instructions, source lines
and classes (wbcore/sass.py), the fact vocabulary (wbcore/method.py), the
failure messages at the student's lines, and the skip with the install line
where the tools are missing.
"""
import os
import pathlib
import unittest
from unittest import mock

from wbcore import method
from wbcore import sass

DATA = pathlib.Path(__file__).resolve().parent / "data" / "sass"
SOURCES = [("/src/workbook/solutions", "solutions"), ("/src/workbook/starter", "starter")]


def listing(name):
    return (DATA / name).read_text()


def counts(text):
    """{kernel short name: {class: count}} of one listing."""
    out = {}
    for name, instructions in sass.kernels(sass.parse(text)).items():
        c = {}
        for i in instructions:
            for cls in sass.classes(i):
                c[cls] = c.get(cls, 0) + 1
        out.setdefault(sass.short_name(name), []).append(c)
    return out


def instruction(text):
    """An Instruction from one line of a listing."""
    functions = sass.parse(".section .text._Z1kv,\"ax\",@progbits\n" + text)
    return functions[0].instructions[0]


class Parsing(unittest.TestCase):
    def test_one_kernel_with_its_lines(self):
        functions = sass.parse(listing("shflSwap_sm75.txt"))
        self.assertEqual([(sass.short_name(f.name), f.entry) for f in functions],
                         [("shflSwap", True)])
        shfl = [i for i in functions[0].instructions if i.base == "SHFL"]
        self.assertEqual(len(shfl), 1)
        # The shuffle is inlined from the CUDA header: the exercise file's
        # line is the call site, and the header's line comes first.
        where = shfl[0].line_in(("shuffle/shflSwap.cu",))
        self.assertEqual((where.path, where.line), ("/src/workbook/solutions/shuffle/shflSwap.cu", 25))
        self.assertTrue(shfl[0].locations[0].path.endswith("sm_30_intrinsics.hpp"))

    def test_a_helper_inlined_is_placed_at_its_own_line(self):
        functions = sass.parse(listing("reduceShfl_sm75.txt"))
        shfl = [i for f in functions for i in f.instructions if i.base == "SHFL"]
        self.assertEqual(len(shfl), 10)
        lines = {i.line_in(("shuffle/reduceShfl.cu",)).line for i in shfl}
        self.assertEqual(lines, {16})   # warpReduce's shuffle, not its two call sites

    def test_both_kernels_of_a_module(self):
        found = counts(listing("setRowReadCol_sm75.txt"))
        self.assertEqual(list(found), ["setRowReadCol"])
        self.assertEqual(len(found["setRowReadCol"]), 2)   # square and rect
        for c in found["setRowReadCol"]:
            self.assertEqual(c, {"STS": 1, "LDS": 1, "BAR": 1, "STG": 1})

    def test_short_names(self):
        self.assertEqual(sass.short_name("_ZN2wb6layout4rect13setRowReadColEPi"), "setRowReadCol")
        self.assertEqual(sass.short_name("_ZN2wb7shuffle8shflSwapEPKiPiiiiii"), "shflSwap")
        self.assertEqual(sass.short_name("plainName"), "plainName")


class Classes(unittest.TestCase):
    def test_classes_of_the_references(self):
        self.assertEqual(counts(listing("shflSwap_sm75.txt"))["shflSwap"],
                         [{"LDG": 4, "LDG.PLAIN": 4, "SHFL": 1, "STG": 4}])
        read_only = counts(listing("stencilReadOnly_sm90.txt"))["stencilReadOnly"][0]
        self.assertEqual((read_only["LDG.RO"], read_only.get("LDG.PLAIN", 0)), (7, 0))
        constant = counts(listing("stencilConstant_sm90.txt"))["stencilConstant"][0]
        self.assertGreaterEqual(constant["CONST"], 1)
        self.assertNotIn("FIMM", constant)

    def test_classes_of_the_wrong_techniques(self):
        literal = counts(listing("stencilConstant_literal_sm75.txt"))["stencilConstant"][0]
        self.assertEqual((literal.get("CONST", 0), literal["FIMM"]), (0, 4))
        ldcg = counts(listing("stencilReadOnly_ldcg_sm90.txt"))["stencilReadOnly"][0]
        self.assertEqual((ldcg["LDG.RO"], ldcg["LDG.PLAIN"]), (3, 4))
        partner = counts(listing("shflSwap_partner_from_global_sm75.txt"))["shflSwap"][0]
        self.assertNotIn("SHFL", partner)
        self.assertGreater(partner["LDG"], 4)

    def test_single_instructions(self):
        cases = {
            "/*0010*/ LDC R2, c[0x3][R0+0x10] ;": {"CONST"},
            "/*0010*/ ULDC.64 UR4, c[0x3][0x8] ;": {"CONST"},
            "/*0010*/ IMAD R0, R1, c[0x0][0x0], R2 ;": set(),
            "/*0010*/ FFMA R1, R2, 0.5, R3 ;": {"FIMM"},
            "/*0010*/ FFMA R1, R2, -3.25e-05, R3 ;": {"FIMM"},
            "/*0010*/ FADD R1, R2, 1 ;": set(),           # an integer immediate
            "/*0010*/ FFMA R1, R2, 1.0, R3 ;": set(),     # 1 and 0 are no coefficients
            "/*0010*/ FFMA R1, R2, R3, R4 ;": set(),
            "/*0010*/ BAR.SYNC.DEFER_BLOCKING 0x0 ;": {"BAR"},
            # A shuffle's mode is its first modifier: down and butterfly
            # (below) are told apart, the indexed and up forms are shuffles
            # alone.
            "/*0010*/ SHFL.DOWN PT, R3, R2, 0x10, 0x1f ;": {"SHFL", "SHFL.DOWN"},
            "/*0010*/ @!P0 SHFL.IDX PT, R3, R2, R5, R6 ;": {"SHFL"},
            "/*0010*/ SHFL.UP P0, R3, R2, 0x1, RZ ;": {"SHFL"},
            "/*0010*/ BAR.ARV 0x1, 0x40 ;": set(),
            "/*0010*/ LDG.E.128.CONSTANT R4, desc[UR4][R2.64] ;": {"LDG", "LDG.RO", "LDG.VEC"},
            # A vector load by its width in the opcode; the address's .64
            # is an operand, not the width.
            "/*0010*/ LDG.E.64 R4, desc[UR4][R2.64] ;": {"LDG", "LDG.PLAIN", "LDG.VEC"},
            "/*0010*/ LDG.E R4, desc[UR4][R2.64] ;": {"LDG", "LDG.PLAIN"},
            "/*0010*/ LDG.E.STRONG.GPU R4, desc[UR4][R2.64] ;": {"LDG", "LDG.PLAIN"},
            "/*0010*/ @!P0 LDS.U.128 R4, [R2] ;": {"LDS"},
            "/*0010*/ LDGSTS.E [R1], desc[UR4][R2.64] ;": {"LDG", "LDG.PLAIN", "STS"},
            "/*0010*/ SHFL.BFLY PT, R0, R3, 0x10, 0x1f ;": {"SHFL", "SHFL.BFLY"},
            "/*0010*/ REDUX.SUM.S32 UR4, R2 ;": {"REDUX"},
            "/*0010*/ STL [R1], R2 ;": {"LOCAL"},
            "/*0010*/ ATOMG.E.ADD.STRONG.GPU PT, R2, [R4], R5 ;": {"ATOMG"},
            # Generic accesses (the address space decided at run time) and
            # warp votes are classes of their own.
            "/*0010*/ LD.E R5, [R2.64] ;": {"GENERIC"},
            "/*0010*/ LD.E.64 R4, [R2.64+0x8] ;": {"GENERIC"},
            "/*0010*/ ST.E [R2.64], R5 ;": {"GENERIC"},
            "/*0010*/ VOTE.ANY R5, PT, P0 ;": {"VOTE"},
            # The compiler's own vote for the active mask reads PT alone.
            "/*0010*/ VOTE.ANY R0, PT, PT ;": set(),
            "/*0010*/ VOTEU.ANY UR4, UPT, PT ;": set(),
            "/*0010*/ VOTEU.ALL UP0, P1 ;": {"VOTE"},
            "/*0010*/ MATCH.ANY R4, R2 ;": {"VOTE"},
        }
        for text, expected in cases.items():
            with self.subTest(text=text):
                self.assertEqual(sass.classes(instruction(text)), expected)


class Facts(unittest.TestCase):
    def test_the_vocabulary(self):
        self.assertEqual(method.parse_fact("needs SHFL"), method.Fact("needs", 1, "SHFL"))
        self.assertEqual(method.parse_fact("needs 4 CONST"), method.Fact("needs", 4, "CONST"))
        self.assertEqual(method.parse_fact("no LDS: no shared memory here"),
                         method.Fact("no", 0, "LDS", "no shared memory here"))
        self.assertEqual(method.parse_fact("at most 1 LDG.RO").text, "at most 1 LDG.RO")
        for wrong in ("needs", "need SHFL", "no 2 LDG", "at most LDG", "needs SHUFFLE",
                      "needs 0 SHFL", "at least 1 SHFL", 3):
            with self.subTest(fact=wrong):
                with self.assertRaises(method.FactError):
                    method.parse_fact(wrong)
        with self.assertRaises(method.FactError):
            method.parse_facts(["at most 1 LDG", "no LDG"])   # bounded from above twice
        method.parse_facts(["needs LDG", "at most 4 LDG"])    # a range is fine

    def test_every_kernel_is_held_to_the_common_facts(self):
        added = method.exercise_facts(["needs SHFL"])
        self.assertEqual([f.text for f in added],
                         ["needs SHFL", "no GENERIC", "no SHFL.ADDRESSED", "no BAR.RED", "no MMA",
                          "no MBARRIER"])
        # A list that bounds the class itself keeps its own bound.
        own = method.exercise_facts(["at most 2 GENERIC: two are fine here"])
        self.assertEqual([f.text for f in own],
                         ["at most 2 GENERIC", "no SHFL.ADDRESSED", "no BAR.RED", "no MMA",
                          "no MBARRIER"])

    def test_tensor_cores_and_wide_copies_have_classes(self):
        # A warp's values summed by a product with ones (forgery reading
        # 2026-11-27, reduceSmem__warp_sums_by_tensor_core_mma).
        for text in ("/*0000*/ DMMA.884 R4, R8, R12, R4 ;",
                     "/*0000*/ HMMA.16816.F32 R4, R8, R12, R4 ;",
                     "/*0000*/ IMMA.16832.S8.S8 R4, R8, R12, R4 ;"):
            self.assertIn("MMA", sass.classes(instruction(text)), text)
        # Four neighbours by one 16-byte asynchronous copy are a vector
        # load (reduceSmemUnroll__four_neighbours_by_one_async_copy); a
        # 4-byte copy is not.
        wide = sass.classes(instruction("/*0000*/ LDGSTS.E.BYPASS.128 [R3], desc[UR4][R4.64] ;"))
        self.assertTrue({"LDG", "LDG.VEC", "STS"} <= wide, wide)
        narrow = sass.classes(instruction("/*0000*/ LDGSTS.E [R3], desc[UR4][R4.64] ;"))
        self.assertNotIn("LDG.VEC", narrow)
        self.assertIn("LDG.VEC", sass.classes(instruction("/*0000*/ UBLKCP.S.G [UR4], [UR6], UR8 ;")))

    def test_mbarriers_and_asynchronous_reductions_have_classes(self):
        # A block's sum from an mbarrier's arrival counts (reading
        # 2026-11-27, reduceSmem__block_sum_by_mbarrier_arrival_counts).
        for text in ("/*0000*/ SYNCS.EXCH.64 URZ, [UR4], UR6 ;",
                     "/*0000*/ SYNCS.ARRIVE.TRANS64.ART0 RZ, [R2], R3 ;",
                     "/*0000*/ SYNCS.ARRIVE.TRANS64.TMASK.ART0 R4, [R2], R5 ;"):
            self.assertEqual(sass.classes(instruction(text)), {"MBARRIER"}, text)
        self.assertIn("ATOMS", sass.classes(instruction("/*0000*/ REDAS.ADD [R2], R3 ;")))
        self.assertIn("ATOMG", sass.classes(instruction("/*0000*/ UBLKRED.G.S.ADD [UR4], [UR6], UR8 ;")))

    def test_a_barrier_that_counts_is_its_own_class(self):
        self.assertEqual(sass.classes(instruction("/*0000*/ BAR.RED.POPC RZ, R3, 0x0, P0 ;")),
                         {"BAR", "BAR.RED"})
        self.assertEqual(sass.classes(instruction("/*0000*/ BAR.SYNC.DEFER_BLOCKING 0x0 ;")),
                         {"BAR"})

    def test_a_load_at_a_shuffled_address_is_found(self):
        # The partner's index by shuffle, its value loaded at that index:
        # the taint goes SHFL -> IMAD.WIDE (the pair R4:R5) -> LDG's address.
        code = [
            "/*0000*/ LDG.E R2, desc[UR4][R6.64] ;",
            "/*0010*/ SHFL.BFLY PT, R3, R0, 0x1, 0x1f ;",
            "/*0020*/ IMAD.WIDE R4, R3, 0x4, R8 ;",
            "/*0030*/ LDG.E R9, desc[UR4][R4.64] ;",
            "/*0040*/ STG.E desc[UR4][R6.64], R9 ;",
        ]
        found = sass.shuffle_addressed([instruction(t) for t in code])
        self.assertEqual([i.offset for i in found], [0x30])
        # A shuffled value that is only added and stored is no address.
        moved = [
            "/*0000*/ LDG.E R2, desc[UR4][R6.64] ;",
            "/*0010*/ SHFL.BFLY PT, R3, R2, 0x1, 0x1f ;",
            "/*0020*/ IADD3 R9, R2, R3, RZ ;",
            "/*0030*/ STG.E desc[UR4][R6.64], R9 ;",
        ]
        self.assertEqual(sass.shuffle_addressed([instruction(t) for t in moved]), [])
        # An index rebuilt under a predicate the shuffled value set is still
        # the shuffle's: LOP3 writes P0 from R2, the guarded add taints R5.
        rebuilt = [
            "/*0000*/ SHFL.BFLY PT, R2, R0, 0x1, 0x1f ;",
            "/*0010*/ LOP3.LUT P0, RZ, R3, R2, RZ, 0xc0, !PT ;",
            "/*0020*/ @P0 IADD3 R5, R5, R3, RZ ;",
            "/*0030*/ IMAD.WIDE.U32 R6, R5, 0x4, R8 ;",
            "/*0040*/ LDG.E R9, desc[UR4][R6.64] ;",
        ]
        self.assertEqual([i.offset for i in sass.shuffle_addressed(
            [instruction(t) for t in rebuilt])], [0x40])
        # Through a constant table indexed by the shuffled lane, into an
        # atomic's address; a store at a shuffled address counts too.
        laundered = [
            "/*0000*/ SHFL.BFLY PT, R2, R0, 0x1, 0x1f ;",
            "/*0010*/ LDC R3, c[0x3][R2] ;",
            "/*0020*/ IMAD.WIDE.U32 R4, R3, 0x4, R8 ;",
            "/*0030*/ ATOMG.E.OR.STRONG.GPU PT, R9, desc[UR4][R4.64], RZ ;",
            "/*0040*/ STG.E desc[UR4][R4.64], R9 ;",
        ]
        self.assertEqual([i.offset for i in sass.shuffle_addressed(
            [instruction(t) for t in laundered])], [0x30, 0x40])
        # A branch on a shuffled value taints what is written until the warp
        # reconverges, not what follows.
        branch = [
            "/*0000*/ SHFL.BFLY PT, R2, R0, 0x1, 0x1f ;",
            "/*0010*/ ISETP.NE.AND P0, PT, R2, RZ, PT ;",
            "/*0020*/ @P0 BRA `(.L_x_1) ;",
            "/*0030*/ MOV R5, 0x4 ;",
            "/*0040*/ BSYNC B0 ;",
            "/*0050*/ MOV R6, 0x8 ;",
            "/*0060*/ LDG.E R9, desc[UR4][R6.64] ;",
            "/*0070*/ LDG.E R10, desc[UR4][R4.64] ;",
        ]
        self.assertEqual([i.offset for i in sass.shuffle_addressed(
            [instruction(t) for t in branch])], [0x70])

    def test_the_scalar_parameters_are_read_from_the_module(self):
        # cuobjdump -elf of shflUp(const int*, int*, int width, unsigned
        # delta) for sm_75 and sm_90: the bank's parameters start at 0x160
        # and 0x210; width and delta are the two of 4 bytes.
        blocks = listing("shflUp_elf.txt").split("Fatbin elf code:")[1:]
        found = [sass.scalar_parameters(b)["_ZN2wb7shuffle6shflUpEPKiPiij"] for b in blocks]
        self.assertEqual([sorted(f) for f in found],
                         [[(0x170, 0x173), (0x174, 0x177)], [(0x220, 0x223), (0x224, 0x227)]])
        # Every parameter by its ordinal: the two pointers first, 8 bytes each.
        self.assertEqual(sass.parameters(blocks[0])["_ZN2wb7shuffle6shflUpEPKiPiij"],
                         {0: (0x160, 0x167), 1: (0x168, 0x16f), 2: (0x170, 0x173),
                          3: (0x174, 0x177)})

    def test_a_load_at_an_address_from_a_parameter_is_found(self):
        scalars = [(0x220, 0x223), (0x224, 0x227)]
        # The partner's element at g - delta: the parameter's byte in an
        # operand taints the index, the index the address.
        forged = [
            "/*0000*/ S2R R0, SR_TID.X ;",
            "/*0010*/ ULDC UR6, c[0x0][0x224] ;",
            "/*0020*/ IADD3 R5, R0, -UR6, RZ ;",
            "/*0030*/ IMAD.WIDE R4, R5, 0x4, R8 ;",
            "/*0040*/ LDG.E R9, desc[UR4][R4.64] ;",
        ]
        self.assertEqual([i.offset for i in sass.parameter_addressed(
            [instruction(t) for t in forged], scalars)], [0x40])
        # The reference: delta reaches only the shuffle; the pointers (8
        # bytes) are no scalars, nor is the memory descriptor.
        honest = [
            "/*0000*/ S2R R0, SR_TID.X ;",
            "/*0010*/ LDC.64 R8, c[0x0][0x210] ;",
            "/*0020*/ ULDC.64 UR4, c[0x0][0x208] ;",
            "/*0030*/ IMAD.WIDE.U32 R4, R0, 0x4, R8 ;",
            "/*0040*/ LDG.E R2, desc[UR4][R4.64] ;",
            "/*0050*/ LDC R3, c[0x0][0x224] ;",
            "/*0060*/ SHFL.UP PT, R2, R2, R3, RZ ;",
            "/*0070*/ STG.E desc[UR4][R4.64], R2 ;",
        ]
        self.assertEqual(sass.parameter_addressed([instruction(t) for t in honest], scalars), [])
        # An early return decided by a parameter taints nothing after it,
        # and a carry a tainted predicate once held is written, not read.
        early = [
            "/*0000*/ LDC R3, c[0x0][0x220] ;",
            "/*0010*/ ISETP.GT.AND P0, PT, R3, 0x20, PT ;",
            "/*0020*/ @P0 BRA `(.L_x_1) ;",
            "/*0030*/ MOV R6, 0x8 ;",
            "/*0040*/ BSYNC B0 ;",
            "/*0050*/ LEA R6, P0, R0, UR6, 0x2 ;",
            "/*0060*/ LDG.E R9, desc[UR4][R6.64] ;",
        ]
        self.assertEqual(sass.parameter_addressed([instruction(t) for t in early], scalars), [])
        # A copy of delta counted up in a loop whose exit tests delta is
        # delta's: written under the branch taken on it (forgery reading
        # 2026-11-27, shflUp__partner_from_global_parameter_counted_up_to).
        counted = [
            "/*0000*/ S2R R0, SR_TID.X ;",
            "/*0010*/ LDC R3, c[0x0][0x224] ;",
            "/*0020*/ MOV R2, RZ ;",
            "/*0030*/ IADD3 R2, R2, R7, RZ ;",
            "/*0040*/ ISETP.GE.U32.AND P0, PT, R2, R3, PT ;",
            "/*0050*/ @!P0 BRA `(.L_x_0) ;",
            "/*0060*/ IADD3 R5, R0, -R2, RZ ;",
            "/*0070*/ IMAD.WIDE R4, R5, 0x4, R8 ;",
            "/*0080*/ LDG.E R9, desc[UR4][R4.64] ;",
        ]
        self.assertEqual([i.offset for i in sass.parameter_addressed(
            [instruction(t) for t in counted], scalars)], [0x80])

    def test_a_parameter_that_reaches_an_address_around_a_loop_is_found(self):
        # The load comes first in the loop's body and its address is
        # computed from the parameter after it, for the next trip (reading
        # 16, 2026-11-27, shflXor__partner_from_global_around_a_loop_back_edge):
        # what the back edge carries reaches the head.
        scalars = [(0x220, 0x223), (0x224, 0x227)]
        head = ".section .text._Z1kv,\"ax\",@progbits\n"

        def loop(mask_operand):
            return sass.parse(head + "\n".join([
                "/*0000*/ S2R R0, SR_TID.X ;",
                "/*0010*/ MOV R5, R0 ;",
                ".L_x_0:",
                "/*0020*/ IMAD.WIDE R4, R5, 0x4, R8 ;",
                "/*0030*/ LDG.E R9, desc[UR4][R4.64] ;",
                f"/*0040*/ LOP3.LUT R5, R0, {mask_operand}, RZ, 0x3c, !PT ;",
                "/*0050*/ IADD3 R6, R6, 0x1, RZ ;",
                "/*0060*/ ISETP.NE.AND P0, PT, R6, 0x2, PT ;",
                "/*0070*/ @P0 BRA `(.L_x_0) ;",
            ]))[0].instructions
        self.assertEqual([i.offset for i in sass.parameter_addressed(
            loop("c[0x0][0x224]"), scalars)], [0x30])
        # The same loop with a constant in the parameter's place is honest.
        self.assertEqual(sass.parameter_addressed(loop("0x10"), scalars), [])

    def test_what_racecheck_can_watch(self):
        def listing(*lines):
            return sass.Listing("sm_90", "\n".join((
                '.section .text._Z1kv,"ax",@progbits', "  .type _Z1kv,@function", *lines,
                "/*0f00*/ EXIT ;")))
        shuffle_only = listing("/*0000*/ LDG.E R2, desc[UR4][R4.64] ;",
                               "/*0010*/ SHFL.IDX PT, R3, R2, R6, 0x1f ;",
                               "/*0020*/ STG.E desc[UR4][R4.64], R3 ;")
        self.assertFalse(sass.reaches_shared_memory([shuffle_only, shuffle_only]))
        # A shared load in any architecture's code, a generic access (its
        # address may be shared) or a copy into shared memory: racecheck runs.
        for line in ("/*0030*/ LDS R7, [R8] ;", "/*0030*/ ST.E [R4.64], R3 ;",
                     "/*0030*/ LDGSTS.E [R3], desc[UR4][R4.64] ;",
                     "/*0030*/ ATOMS.ADD RZ, [R8], R3 ;"):
            with self.subTest(line=line):
                self.assertTrue(sass.reaches_shared_memory([shuffle_only, listing(line)]))
        # Nothing read (a module of PTX alone): nobody can tell.
        self.assertTrue(sass.reaches_shared_memory([]))

    def test_the_compilers_shuffle_copies_are_not_counted(self):
        functions = sass.parse("\n".join((
            '.section .text._Z1kv,"ax",@progbits',
            "  .type _Z1kv,@function",
            "/*0000*/ SHFL.BFLY PT, R5, R2, 0x10, 0x1f ;",
            "/*0010*/ WARPSYNC.COLLECTIVE R8, `(.L_x_3) ;",
            "/*0020*/ SHFL.BFLY P0, R9, R2, R11, R13 ;",
            "/*0030*/ ENDCOLLECTIVE ;",
            "/*0040*/ CALL.REL.NOINC `($__internal_0_$__cuda_sm70_shflsync_bfly_p) ;",
            "/*0050*/ EXIT ;",
            "  .type $__internal_0_$__cuda_sm70_shflsync_bfly_p,@function",
            "/*0060*/ WARPSYNC R8 ;",
            "/*0070*/ SHFL.BFLY PT, R7, R0, R7, R5 ;",
            "/*0080*/ RET.REL.NODEC R2 `(_Z1kv) ;")))
        code = functions[0].instructions
        self.assertEqual(sass.compiler_copies(code), {1, 2, 3, 4, 6, 7, 8})
        self.assertEqual([i.offset for i in sass.counted(code)], [0x00, 0x50])

    # A __noinline__ function of the exercise's own: a subroutine in the
    # kernel's section (internal linkage) whose body is a SHFL and a RET,
    # the shape of the toolkit's helper.
    HELPER = "$__internal_0_$_ZN12_GLOBAL__N_14stepEii"

    def helper_listing(self, *kernel_lines):
        return sass.parse("\n".join((
            '.section .text._Z1kv,"ax",@progbits',
            "  .type _Z1kv,@function", *kernel_lines,
            f"  .type {self.HELPER},@function",
            "/*0100*/ SHFL.BFLY PT, R4, R4, R5, 0x1f ;",
            f"/*0110*/ RET.REL.NODEC R2 `(_Z1kv) ;")))[0].instructions

    def test_a_helper_of_the_exercise_counts_at_each_call(self):
        code = self.helper_listing(*(f"/*00{k}0*/ CALL.REL.NOINC `({self.HELPER}) ;"
                                     for k in range(5)), "/*0050*/ EXIT ;")
        self.assertEqual(sass.compiler_copies(code), set())
        shuffles = [i for i in sass.counted(code) if "SHFL.BFLY" in sass.classes(i)]
        self.assertEqual(len(shuffles), 5)

    def test_the_taint_follows_a_call_into_the_helper(self):
        code = self.helper_listing(
            "/*0000*/ MOV R4, R0 ;",
            f"/*0010*/ CALL.REL.NOINC `({self.HELPER}) ;",
            "/*0020*/ IMAD.WIDE R6, R4, 0x4, R2 ;",
            "/*0030*/ LDG.E R9, desc[UR4][R6.64] ;",
            "/*0040*/ EXIT ;")
        self.assertEqual([i.offset for i in sass.shuffle_addressed(code)], [0x30])

    def test_every_list_of_the_workbook_parses(self):
        from wbcore import course
        kernels = [e for e in course.exercises() if e.kind == "kernel"]
        self.assertTrue(kernels)
        for e in kernels:
            with self.subTest(exercise=e.key):
                self.assertTrue(method.parse_facts(list(e.method)), "no method facts")


# shflSwap(const int*, int*, int width, int firstLane, int secondLane, int
# firstIdx, int secondIdx) on sm_75: its five scalars from 0x170.
SWAP_SCALARS = {"_ZN2wb7shuffle8shflSwapEPKiPiiiiii": [(0x170 + 4 * k, 0x173 + 4 * k)
                                                       for k in range(5)]}
# stencilReadOnly(const float* in, float* out, unsigned int n, const float*
# coef)'s parameters on sm_90, as the module's .nv.info says (from 0x210;
# coef, the last, at 0x228 after the 4 bytes of n and 4 of padding).
STENCIL_PARAMS = {"_ZN2wb8constant15stencilReadOnlyEPKfPfjS2_": {
    0: (0x210, 0x217), 1: (0x218, 0x21f), 2: (0x220, 0x223), 3: (0x228, 0x22f)}}


class Messages(unittest.TestCase):
    def facts(self, key):
        from wbcore import course
        return method.exercise_facts(list(course.find_exercise(key).method))

    def test_the_references_pass(self):
        for name, key in (("shflSwap_sm75.txt", "shuffle/shflSwap"),
                          ("reduceShfl_sm75.txt", "shuffle/reduceShfl"),
                          ("setRowReadCol_sm75.txt", "layout/setRowReadCol"),
                          ("stencilConstant_sm90.txt", "constant/stencilConstant"),
                          ("stencilReadOnly_sm90.txt", "constant/stencilReadOnly"),
                          # Honest variants whose listings hold the
                          # compiler's own shuffle copies and votes.
                          ("reduceSmemShfl_store_after_the_branch_sm75.txt",
                           "shuffle/reduceSmemShfl"),
                          ("reduceSmemShfl_store_after_the_branch_sm90.txt",
                           "shuffle/reduceSmemShfl"),
                          ("reduceShfl_rolled_store_after_the_branch_sm75.txt",
                           "shuffle/reduceShfl"),
                          ("reduceShfl_rolled_store_after_the_branch_sm90.txt",
                           "shuffle/reduceShfl")):
            with self.subTest(listing=name):
                # The listings hold no .nv.info: the exchange's scalar
                # parameters as the module would say (sm_75: from 0x160).
                kernels, findings = method.evaluate([sass.Listing("sm_xx", listing(name),
                                                                  SWAP_SCALARS,
                                                                  STENCIL_PARAMS)],
                                                    self.facts(key),
                                                    SOURCES, key.split("/")[0] + "/"
                                                    + key.split("/")[1] + ".cu")
                self.assertTrue(kernels)
                self.assertEqual(method.describe(findings), [])

    def test_a_swap_from_global_memory_named_at_its_lines(self):
        text = listing("shflSwap_partner_from_global_sm75.txt").replace(
            "/src/workbook/tests/mutants/shuffle/shflSwap__partner_from_global_memory.cu",
            "/src/workbook/starter/shuffle/shflSwap.cu")
        _, findings = method.evaluate([sass.Listing("sm_75", text, SWAP_SCALARS)],
                                      self.facts("shuffle/shflSwap"),
                                      SOURCES, "shuffle/shflSwap.cu")
        said = method.describe(findings)
        self.assertEqual(len(said), 3, said)
        self.assertRegex(said[0], r"^shflSwap: 2 PARAM.ADDRESSED instruction\(s\), expected "
                                  r"none: .*; at starter/shuffle/shflSwap\.cu:22, :24$")
        self.assertRegex(said[1], r"^shflSwap: no SHFL instruction: .*; the kernel is at "
                                  r"starter/shuffle/shflSwap\.cu:\d+$")
        self.assertRegex(said[2], r"^shflSwap: 6 LDG instruction\(s\), expected at most 4: "
                                  r"each lane loads only its own values; the partner's comes by "
                                  r"shuffle, not from global memory; at "
                                  r"starter/shuffle/shflSwap\.cu:16, :22, :24$")
        self.assertEqual(method.failed_facts(findings),
                         ["no PARAM.ADDRESSED", "needs SHFL", "at most 4 LDG"])
        # Without the module's parameters the fact is not taken as held.
        _, unread = method.evaluate([("sm_75", text)], self.facts("shuffle/shflSwap"))
        self.assertIn("PARAM.ADDRESSED could not be judged", method.describe(unread)[0])

    def test_the_other_wrong_techniques_fail(self):
        for name, key, failing in (
                ("stencilConstant_literal_sm75.txt", "constant/stencilConstant",
                 ["needs CONST", "no FIMM"]),
                ("stencilReadOnly_ldcg_sm90.txt", "constant/stencilReadOnly",
                 ["at most 3 LDG.PLAIN", "needs 4 LDG.RO", "no COEF.PLAIN"]),
                # Three global loads in the code, two of them in a loop kept
                # rolled that reads the eight neighbours (reading 16).
                ("stencilConstant_rolled_neighbours_sm75.txt", "constant/stencilConstant",
                 ["at most 3 LDG"]),
                # reduceShfl's butterfly handed in for the shuffle-down
                # exercise: the right sums, the shuffles of the wrong mode.
                ("reduceShfl_sm75.txt", "shuffle/reduceShflDown",
                 ["needs SHFL.DOWN", "no SHFL.BFLY"])):
            with self.subTest(listing=name):
                _, findings = method.evaluate([sass.Listing("sm_xx", listing(name), {},
                                                            STENCIL_PARAMS)], self.facts(key))
                self.assertEqual(method.failed_facts(findings), failing)


class Tools(unittest.TestCase):
    def test_missing_tools_say_how_to_install_them(self):
        with mock.patch.dict(os.environ, {"WB_CUOBJDUMP": "/nonexistent/cuobjdump",
                                          "WB_NVDISASM": "/nonexistent/nvdisasm"}):
            with self.assertRaises(sass.ToolsMissing) as caught:
                sass.find_tools()
        said = str(caught.exception)
        self.assertIn("cuobjdump and nvdisasm not found", said)
        pins = sass.pinned_versions()
        self.assertEqual(set(pins), {"nvidia-cuda-cuobjdump", "nvidia-cuda-nvdisasm"})
        for package, version in pins.items():
            self.assertIn(f"{package}=={version}", said)

    def test_the_readme_gives_the_pinned_install_line(self):
        readme = (pathlib.Path(__file__).resolve().parents[2] / "README.md").read_text()
        self.assertIn(sass.install_line(), " ".join(readme.split()))

    def test_a_wheel_in_this_python_is_found(self):
        with mock.patch.object(sass, "_site_folders", return_value=[str(DATA / "no-site")]):
            self.assertIsNone(next(sass._wheel_candidates("nvdisasm"), None))


if __name__ == "__main__":
    unittest.main(verbosity=1)
