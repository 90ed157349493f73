target_sources(berthier_rules PRIVATE ${CMAKE_CURRENT_LIST_DIR}/geom.c ${CMAKE_CURRENT_LIST_DIR}/sintab.c)
