#-----------------------------------------------------------------------------
# A small regression file for ferrohex's own tests of `ferrohex regress`:
# one test of each kind of outcome.
#-----------------------------------------------------------------------------

boardsize 3 3

# Passes: play answers nothing.
10 play b a1
#? []

# Fails: the answer is not the expected one.
20 name
#? [wolve]

# Known failure that still fails (nobody has won yet, so the answer is `?`).
30 final_score
#? [B\+]*

# Known failure that passes: an unexpected pass.
40 protocol_version
#? [2]*

# loadsgf with a path relative to this file's folder.
loadsgf sgf/black-won.sgf
50 final_score
#? [B\+]

# A command ferrohex does not know fails the test.
60 compute-inferior white
#? [.*]

# A set-up command that fails is reported but is not a test.
frobnicate

# Negated pattern: the answer must not mention a1.
70 all_legal_moves b
#? [!.*a1.*]

80 showboard
#? [.*B.*]
