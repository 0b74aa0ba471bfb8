# The grader's budgets: one place for each limit and the reason it exists.
# tests/CMakeLists.txt hands them to check_budgets.cmake (cpu.budgets), which
# prints what it measured; each budget has a test of the check that breaks it
# (cpu.budgets.catches_*, on the fixture tests/budgets/over/).
#
# The commands parse, call and print (grader/README.md): lines in cli/ are
# decisions made where no other command or test can reach them. Issue 46
# asks 2,600; 2,517 since 2026-12-01 (what a person reads of a check and a
# run in view/, a program lab's check through check_lab).
set(HPCLAB_BUDGET_CLI_LINES 2600)
# A function reads top to bottom in a screen: past 80 lines it is several
# steps whose names are missing.
set(HPCLAB_BUDGET_FUNCTION_LINES 80)
# A folder does one job; past 20 modules it does several (run/ had 23 until
# the GPU's own modules went to gpu/).
set(HPCLAB_BUDGET_FOLDER_MODULES 20)
# A lab kind (the harness calls the student's functions, or the student's
# file is the whole program) is one seam, course/lab_kind.h: a table of
# named traits, one row per kind. Each line elsewhere that asks it is a place
# a new kind must be looked for. Issue 46 asks 2; 13 calls of owns_main()
# at the start of 2026-12-01, 5 lines asking a named trait since the seam,
# 4 since the kit reads whether a lab has a baseline program from its
# record (the check, the build, the class's cost, and the CLI's one table
# of a whole program's commands, cli/program_lab_view.h).
set(HPCLAB_BUDGET_KIND_ASKED 4)
# A new lab adds data, not grader code (issue 46): no lab's id is a string in
# grader code outside the seam (its lab.json, its labs/<id>/spec.cpp, its
# files are the lab). 0 since 2026-12-01 (similarity's look scores were the
# last: now each lab.json's "similarity").
set(HPCLAB_BUDGET_LABS_NAMED 0)
# Two modules of one folder that include each other's header: the types they
# share live in the orchestrating one's header, so a step cannot be read or
# changed below it. Issue 46 counted 9 such includes; 0 since 2026-12-01
# (run/run_request.h, check/lab_check.h, process/bwrap.h, link_check's LinkParts).
set(HPCLAB_BUDGET_BACK_INCLUDES 0)
# What a run calls back or waits for while it runs (run/run_request.h,
# RunHooks): each is a way for a caller to reach into a run, in a thread of
# its own. Issue 46 counted 9 and asks at most 4; 8 at the start of
# 2026-12-01 (five callbacks, three futures), 4 since the moments of a run
# are one callback (RunHooks::at) and the gate holds when it opens.
set(HPCLAB_BUDGET_RUN_HOOKS 4)
set(HPCLAB_BUDGET_SEAM course)
