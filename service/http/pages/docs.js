// The API's page (/docs): Swagger UI, from the service's own files, started here rather than
// by an inline script (the pages' Content-Security-Policy runs none). The Swagger UI the
// service ships (swagger-ui-bundle 1.1.0: Swagger UI 3.20) reads OpenAPI 3.0 and refuses the
// 3.1 document FastAPI writes ("Unable to render this definition"): the page gives it the
// document read as 3.0 (the schemas FastAPI writes read alike in both); /openapi.json is as served.
(async function () {
  "use strict";
  const options = {
    dom_id: "#swagger-ui",
    layout: "BaseLayout",
    deepLinking: true,
    showExtensions: true,
    showCommonExtensions: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset],
  };
  try {
    const spec = await (await fetch("/openapi.json")).json();
    if (String(spec.openapi || "").startsWith("3.1")) { spec.openapi = "3.0.3"; }
    window.ui = SwaggerUIBundle({...options, spec});
  } catch (err) {
    window.ui = SwaggerUIBundle({...options, url: "/openapi.json"});
  }
})();
