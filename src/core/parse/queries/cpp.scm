; Tags for C++ (tags convention: @name.definition.*, @definition.*, @name.reference.*, @import.*).
; Names sit inside declarators, as in C. A member defined out of line (`void Scheduler::submit()`) names its class
; with @container, so it becomes `Scheduler.submit` like one defined in the class body.

; Functions (in a class body they become methods by nesting), and prototypes at file or namespace scope.
(function_definition declarator: (function_declarator declarator: [(identifier) (field_identifier) (operator_name)] @name.definition.function)) @definition.function
(function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: [(identifier) (field_identifier)] @name.definition.function))) @definition.function
(function_definition declarator: (reference_declarator (function_declarator declarator: [(identifier) (field_identifier)] @name.definition.function))) @definition.function
(function_definition declarator: (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name.definition.function)))) @definition.function
(translation_unit (declaration declarator: [
  (function_declarator declarator: (identifier) @name.definition.function)
  (pointer_declarator declarator: (function_declarator declarator: (identifier) @name.definition.function))
  (reference_declarator (function_declarator declarator: (identifier) @name.definition.function))]) @definition.function)
(declaration_list (declaration declarator: [
  (function_declarator declarator: (identifier) @name.definition.function)
  (pointer_declarator declarator: (function_declarator declarator: (identifier) @name.definition.function))
  (reference_declarator (function_declarator declarator: (identifier) @name.definition.function))]) @definition.function)

; Out-of-line members: `R Foo::bar()`, `Foo::Foo()`, `Foo::~Foo()`, `R* ns::Foo::bar()`, `Foo<T>::bar()`.
(function_definition declarator: [
  (function_declarator declarator: (qualified_identifier
    scope: [(namespace_identifier) @container (template_type name: (type_identifier) @container)]
    name: [(identifier) (destructor_name) (operator_name)] @name.definition.method))
  (function_declarator declarator: (qualified_identifier name: (qualified_identifier
    scope: [(namespace_identifier) @container (template_type name: (type_identifier) @container)]
    name: [(identifier) (destructor_name) (operator_name)] @name.definition.method)))
  (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
    scope: [(namespace_identifier) @container (template_type name: (type_identifier) @container)]
    name: (identifier) @name.definition.method)))
  (reference_declarator (function_declarator declarator: (qualified_identifier
    scope: [(namespace_identifier) @container (template_type name: (type_identifier) @container)]
    name: (identifier) @name.definition.method)))]) @definition.method

; Members declared in a class body: methods, constructors, destructors, operators, fields.
(field_declaration_list (field_declaration declarator: (function_declarator declarator: [(field_identifier) (operator_name) (destructor_name)] @name.definition.method)) @definition.method)
(field_declaration_list (field_declaration declarator: [(pointer_declarator) (reference_declarator)] (function_declarator declarator: (field_identifier) @name.definition.method)) @definition.method)
(field_declaration_list (declaration declarator: (function_declarator declarator: [(identifier) (destructor_name) (operator_name)] @name.definition.method)) @definition.method)
(field_declaration_list (function_definition declarator: (function_declarator declarator: (destructor_name) @name.definition.method)) @definition.method)
(field_declaration declarator: [
  (field_identifier) @name.definition.field
  (pointer_declarator declarator: (field_identifier) @name.definition.field)
  (reference_declarator (field_identifier) @name.definition.field)
  (array_declarator declarator: (field_identifier) @name.definition.field)]) @definition.field

; Types and namespaces. Only specifiers with a body define; a typedef'd struct spans its typedef (see c.scm).
(namespace_definition name: (namespace_identifier) @name.definition.module) @definition.module
(class_specifier name: (type_identifier) @name.definition.class body: (_)) @definition.class
(struct_specifier name: (type_identifier) @name.definition.struct body: (_)) @definition.struct
(union_specifier name: (type_identifier) @name.definition.struct body: (_)) @definition.struct
(enum_specifier name: (type_identifier) @name.definition.enum body: (_)) @definition.enum
(type_definition type: (struct_specifier name: (type_identifier) @name.definition.struct body: (_))) @definition.struct
(type_definition type: (struct_specifier !name body: (_)) declarator: (type_identifier) @name.definition.struct) @definition.struct
(type_definition type: (enum_specifier !name body: (_)) declarator: (type_identifier) @name.definition.enum) @definition.enum
(type_definition declarator: (type_identifier) @name.definition.type) @definition.type
(type_definition declarator: (pointer_declarator declarator: (type_identifier) @name.definition.type)) @definition.type
(alias_declaration name: (type_identifier) @name.definition.type) @definition.type
(enumerator name: (identifier) @name.definition.constant) @definition.constant

(preproc_def name: (identifier) @name.definition.constant value: (_)) @definition.constant
(preproc_function_def name: (identifier) @name.definition.macro) @definition.macro

; File- and namespace-scope variables; `const`/`constexpr` ones are constants (ranked above variable). The
; qualifier is matched in the text: a (type_qualifier) child in the pattern makes the query compile far slower.
(translation_unit (declaration declarator: [
  (identifier) @name.definition.variable
  (init_declarator declarator: (identifier) @name.definition.variable)
  (init_declarator declarator: (pointer_declarator declarator: (identifier) @name.definition.variable))]) @definition.variable)
(translation_unit (declaration declarator: [
  (identifier) @name.definition.constant
  (init_declarator declarator: (identifier) @name.definition.constant)
  (init_declarator declarator: (pointer_declarator declarator: (identifier) @name.definition.constant))]) @definition.constant
  (#match? @definition.constant "^[^=(]*\\bconst(expr)?\\b"))
(declaration_list (declaration declarator: [
  (identifier) @name.definition.variable
  (init_declarator declarator: (identifier) @name.definition.variable)
  (init_declarator declarator: (pointer_declarator declarator: (identifier) @name.definition.variable))]) @definition.variable)
(declaration_list (declaration declarator: [
  (identifier) @name.definition.constant
  (init_declarator declarator: (identifier) @name.definition.constant)
  (init_declarator declarator: (pointer_declarator declarator: (identifier) @name.definition.constant))]) @definition.constant
  (#match? @definition.constant "^[^=(]*\\bconst(expr)?\\b"))

; References. Every type identifier is a type use; extract.ts drops the declaring ones.
(call_expression function: [
  (identifier) @name.reference.call
  (field_expression field: (field_identifier) @name.reference.call)
  (qualified_identifier name: (identifier) @name.reference.call)
  (template_function name: (identifier) @name.reference.call)
  (qualified_identifier name: (template_function name: (identifier) @name.reference.call))])
(type_identifier) @name.reference.type
(new_expression type: [
  (type_identifier) @name.reference.class
  (qualified_identifier name: (type_identifier) @name.reference.class)
  (template_type name: (type_identifier) @name.reference.class)])
(base_class_clause [
  (type_identifier) @name.reference.class
  (qualified_identifier name: (type_identifier) @name.reference.class)
  (template_type name: (type_identifier) @name.reference.class)])

(preproc_include path: (_) @import.source)
