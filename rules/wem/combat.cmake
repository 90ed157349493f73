# [2. Bombardment] [3.4 Combat] the Generals in them (generals.c); bombard.c and combat.c are
# listed in CMakeLists.txt
target_sources(berthier_rules PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/generals.c)
