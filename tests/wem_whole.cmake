# The whole-game wem tests (included by tests/wem.cmake): the greedy wem player's test links the
# bots, and the wem rule-case inventory (docs/wem-cases/) names only tests that exist, with every
# wem rule-case test in it (tests/tools/check_wem_cases.py).
if(TARGET test_wem_greedy AND TARGET berthier_bots)
  target_link_libraries(test_wem_greedy PRIVATE berthier_bots)
endif()
add_test(NAME wem_cases_inventory COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/tools/check_wem_cases.py
         ${CMAKE_SOURCE_DIR})
set_tests_properties(wem_cases_inventory PROPERTIES TIMEOUT 60)
